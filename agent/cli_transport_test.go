package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/manifest"
	"github.com/mur-go/mur/stage"
	"github.com/mur-go/mur/tools"
)

// A transport: process attempt serves the loop's inventory over the
// bridge and runs the CLI's call through the loop's dispatch; its
// failures are the loop's *Error kinds.
func TestRunProcess(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "claude")
	if out, err := exec.Command("go", "build", "-o", cli, "../transport/process/testdata/fakecli").CombinedOutput(); err != nil {
		t.Fatalf("building the fake CLI: %v\n%s", err, out)
	}
	cases := []struct {
		name, task string
		maxTurns   uint32
		kind       Kind
		result     string
	}{
		{"a tool call through dispatch", `call echo {"a":"hi"}`, 10, 0, `done: answer to {"a":"hi"}`},
		{"max_turns", "turns 3", 2, KindMaxTurns, "error: the agent CLI exceeded inference.max_turns (2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s := &stage.Session{AccessibleDir: filepath.Join(dir, "work"), SessionDir: filepath.Join(dir, "ses"),
				OutDir: filepath.Join(dir, "ses", "out"),
				Capsule: &manifest.Capsule{Inference: &manifest.Inference{Transport: "process", Command: cli,
					MaxTurns: c.maxTurns, SystemPrompt: "Be brief."}},
				Artifacts: []*stage.Artifact{{Name: "echo", Role: stage.RoleTool, Kind: stage.KindWasm,
					Manifest: &manifest.Artifact{Name: "echo", Runtime: "tool", Description: "Echoes.",
						InputSchema: `{"type":"object","properties":{"a":{"type":"string"}}}`}}}}
			for _, d := range []string{s.AccessibleDir, s.OutDir} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(s.AccessibleDir, "task.md"), []byte(c.task), 0o644); err != nil {
				t.Fatal(err)
			}
			ts := tools.NewToolSet()
			ts.Add("echo", toolFunc(func(_ context.Context, in tools.ToolInput) (tools.ToolResult, error) {
				text := "answer to " + *in.Data
				return tools.ToolResult{Status: tools.StatusPassed, Data: &text}, nil
			}))
			host := map[string]string{"PATH": os.Getenv("PATH")}
			out, err := RunProcess(context.Background(), Options{Session: s, Tools: ts, Allowlist: []string{"echo"}},
				ProcessOptions{Env: tools.SubprocessEnv{Getenv: func(k string) (string, bool) { v, ok := host[k]; return v, ok }}})
			var e *Error
			switch {
			case c.kind == 0 && err != nil:
				t.Fatal(err)
			case c.kind != 0 && (!errors.As(err, &e) || e.Kind != c.kind):
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			case c.kind == 0 && out.Text != c.result:
				t.Fatalf("outcome %+v", out)
			}
			if b, _ := os.ReadFile(filepath.Join(s.OutDir, stage.ResultFile)); string(b) != c.result {
				t.Fatalf("result.txt %q, want %q", b, c.result)
			}
			var argv []string
			b, _ := os.ReadFile(filepath.Join(s.AccessibleDir, "fake-argv.json"))
			if err := json.Unmarshal(b, &argv); err != nil {
				t.Fatal(err)
			}
			if i := strings.Index(strings.Join(argv, "\x00"), "--system-prompt\x00"+Notices+"\n\nBe brief.\x00"); i < 0 {
				t.Fatalf("argv %q lacks the notices and prompt", argv)
			}
		})
	}
}
