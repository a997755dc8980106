//go:build linux

package launch_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// crashPkg builds the native tool "crash" (testdata/crash) into a package.
var crashPkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-crash-pkg-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(src, "crash-bin")
	if err := goBuild(bin, "./internal/launch/testdata/crash"); err != nil {
		return "", err
	}
	dir := filepath.Join(src, "crash")
	if err := artifactDir(dir, "crash", "implementation: native\n", map[string]string{"bin/crash": bin}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build crash: exit %d\n%s", code, stderr)
	}
	return filepath.Join(src, "crash-0.1.0.mur.zip"), nil
})

// A native tool a signal kills: the trace's tool_call records the signal
// and the exit code, and the model is told, whatever the tool wrote
// before (here a line on stderr, which used to be all the model saw).
// The scripted driver checks the tool result it is sent word for word;
// a mismatch fails the run.
func TestNativeToolKilledBySignal(t *testing.T) {
	for _, tc := range []struct {
		signal string
		code   float64
	}{{"KILL", 137}, {"SEGV", 139}} {
		t.Run("SIG"+tc.signal, func(t *testing.T) {
			pkg, err := crashPkg()
			if err != nil {
				t.Fatal(err)
			}
			agent, err := agentPkgs()
			if err != nil {
				t.Fatal(err)
			}
			told := fmt.Sprintf("native tool 'crash' was killed by SIG%s (exit status %d) before it finished; what it wrote before:\ndying by SIG%s\n",
				tc.signal, int(tc.code), tc.signal)
			turns, _ := json.Marshal([]any{
				map[string]any{"tool_calls": []any{map[string]any{"id": "c", "name": "crash", "input": map[string]string{"signal": tc.signal}}}},
				map[string]any{"text": "noted", "expect_results": []any{map[string]any{"tool_call_id": "c", "is_error": true, "text": told}}},
			})
			p := &project{t: t, dir: t.TempDir()}
			yaml := fmt.Sprintf(`name: crasher
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": %s}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: crash
    version: "0.1.0"
    runtime: tool
`, turns)
			if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			p.mur(0, "install", filepath.Join(agent, "scripted-0.1.0.mur.zip"))
			p.mur(0, "install", pkg)
			stdout, stderr := p.mur(0, "run", "--task", "crash")
			var call map[string]any
			for _, l := range p.sessionTrace() {
				if l.Type == trace.TypeToolCall {
					call = l.Fields
				}
			}
			if call == nil || call["status"] != "error" || call["exit_code"] != tc.code || call["signal"] != "SIG"+tc.signal {
				t.Errorf("tool_call %v: want status error, exit_code %v, signal SIG%s\nstdout:\n%s\nstderr:\n%s", call, tc.code, tc.signal, stdout, stderr)
			}
		})
	}
}
