package launch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// mkdirPkg builds the native tool "mkdir-tool", Murmur's test tool of
// that kind: a script that runs mkdir and touch in its workdir, and also
// tries to read /etc/passwd, which no grant covers, recording each exit
// status. It says passed whatever happened, as Murmur's does.
var mkdirPkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-mkdir-tool-")
	if err != nil {
		return "", err
	}
	script := filepath.Join(src, "mkdir-tool.sh")
	body := "#!/bin/sh\nmkdir -p native-ran && touch native-ran/marker.txt\necho $? > made.status\n" +
		"cat /etc/passwd > passwd.txt 2>/dev/null\necho $? > read-etc.status\n" +
		"echo '{\"status\":\"passed\",\"summary\":\"native ran ok\"}'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		return "", err
	}
	dir := filepath.Join(src, "mkdir-tool")
	if err := artifactDir(dir, "mkdir-tool", "implementation: native\n", map[string]string{"bin/mkdir-tool": script}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build mkdir-tool: exit %d\n%s", code, stderr)
	}
	return src, nil
})

// A native tool under the advisory floor (the default) runs the host's
// programs, as Murmur's native tools do: its mkdir works. Its files stay
// contained all the same (no read of /etc/passwd). Under a scoped floor
// only the shell.allow binaries run, so there mkdir fails unless allowed.
func TestNativeToolRunsSystemProgramsUnderAdvisory(t *testing.T) {
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	tool, err := mkdirPkg()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, capabilities string
		made               bool
	}{
		{"advisory", "", true},
		{"scoped", "capabilities:\n  containment: scoped\n", false},
		{"scoped, mkdir and touch allowed", "capabilities:\n  containment: scoped\n  shell:\n    allow: [mkdir, touch]\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &project{t: t, dir: t.TempDir()}
			yaml := `name: native-agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [{"id": "n", "name": "mkdir-tool", "input": {}}]}, {"text": "done"}]}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
  - {name: mkdir-tool, version: "0.1.0", runtime: tool}
` + tc.capabilities
			if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			p.mur(0, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip"))
			p.mur(0, "install", filepath.Join(tool, "mkdir-tool-0.1.0.mur.zip"))
			p.mur(0, "run", "--task", "make a directory")
			work := p.sessionDir()
			_, err := os.Stat(filepath.Join(work, "native-ran", "marker.txt"))
			if made := err == nil; made != tc.made {
				status, _ := os.ReadFile(filepath.Join(work, "made.status"))
				t.Errorf("the tool's mkdir and touch worked: %v, want %v (exit status %s)", made, tc.made, strings.TrimSpace(string(status)))
			}
			if status, err := os.ReadFile(filepath.Join(work, "read-etc.status")); err != nil || strings.TrimSpace(string(status)) == "0" {
				t.Errorf("the tool read /etc/passwd (exit status %q, %v)", status, err)
			}
		})
	}
}
