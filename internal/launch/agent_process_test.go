package launch_test

// transport: process through the mur binary: the fake agent CLI
// (internal/agent/process/testdata/fakecli) stands in for claude and codex,
// reaching the staged WASM tool echo over the bridge with the MCP SDK's
// client, and mur must run it as one of the loop's attempts.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeCLIs is a directory holding the fake CLI as claude and as codex.
var fakeCLIs = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mur-fakecli-")
	if err != nil {
		return "", err
	}
	claude := filepath.Join(dir, "claude")
	if err := goBuild(claude, "./internal/agent/process/testdata/fakecli"); err != nil {
		return "", err
	}
	return dir, copyFile(claude, filepath.Join(dir, "codex"))
})

// processProject is a transport: process capsule whose inference block
// adds inference to the transport, with the WASM tool echo installed.
func processProject(t *testing.T, inference string) *project {
	t.Helper()
	return processProjectIn(t, t.TempDir(), inference)
}

// processProjectIn is processProject in the existing directory dir.
func processProjectIn(t *testing.T, dir, inference string) *project {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: dir}
	yaml := fmt.Sprintf(`name: proc
version: "0.1.0"
inference:
  transport: process
  system_prompt: Answer briefly.
%sartifacts:
  - name: echo
    version: "0.1.0"
    runtime: tool
`, inference)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(pkgs, "echo-0.1.0.mur.zip"))
	return p
}

// Each way a process attempt ends, as mur run reports it and as
// trace.jsonl records it (shape checks the counts invariant): the bridge
// call to the WASM tool is a tool_call line paired from the CLI's stream,
// the result event is out/result.txt, and a failed attempt exits 1.
func TestProcessTransportSession(t *testing.T) {
	clis, err := fakeCLIs()
	if err != nil {
		t.Fatal(err)
	}
	const reversed = `}"olleh":"txet"{`
	cases := []struct {
		name, inference, task string
		path                  bool // the fake CLI first on PATH
		code                  int
		result                string
		shape                 []string
	}{
		{name: "claude calls a WASM tool over the bridge", inference: "  command: " + filepath.Join(clis, "claude") + "\n",
			task: `call echo {"text":"hello"}`, result: "done: " + reversed,
			shape: []string{"task_start", "session_start", "inference:tool_call", "tool_call:echo:ok", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "claude found on PATH", path: true, inference: "  command: claude\n", task: `call echo {"text":"hello"}`, result: "done: " + reversed,
			shape: []string{"task_start", "session_start", "inference:tool_call", "tool_call:echo:ok", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "codex calls a WASM tool over the bridge", inference: "  command: " + filepath.Join(clis, "codex") + "\n",
			task: `call echo {"text":"hello"}`, result: "done: " + reversed,
			shape: []string{"task_start", "session_start", "inference:tool_call", "tool_call:echo:ok", "inference:end_turn", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "max_turns exceeded", inference: "  command: " + filepath.Join(clis, "claude") + "\n  max_turns: 2\n", task: "turns 3", code: 1,
			result: "error: the agent CLI exceeded inference.max_turns (2)",
			shape:  []string{"task_start", "session_start", "inference:end_turn", "inference:end_turn", "session_end:failed", "task_end:failed"}},
		{name: "the CLI exits non-zero", inference: "  command: " + filepath.Join(clis, "claude") + "\n", task: "exit", code: 1,
			result: "error: the agent CLI '", shape: []string{"task_start", "session_start", "session_end:failed", "task_end:failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := processProject(t, c.inference)
			var extra []string
			if c.path {
				extra = []string{"PATH=" + clis + string(os.PathListSeparator) + os.Getenv("PATH")}
			}
			stdout, stderr, code := runMur(p.dir, extra, "run", "--task", c.task)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			status := "ok"
			if c.code != 0 {
				status = "failed"
			}
			if !endsWithStatus(stdout, status) {
				t.Errorf("stdout does not end with status %s:\n%s\nstderr:\n%s", status, stdout, stderr)
			}
			lines := p.sessionTrace()
			if got := shape(t, lines); !slices.Equal(got, c.shape) {
				t.Errorf("trace\n got  %v\n want %v", got, c.shape)
			}
			for _, l := range lines {
				f := l.Fields
				switch {
				case l.Type == "inference" && (f["input_tokens"] != 0.0 || f["output_tokens"] != 0.0):
					t.Errorf("an inference line with tokens: %v", f)
				case l.Type == "tool_call" && (f["turn"] != 0.0 || f["input"].(map[string]any)["text"] != "hello" ||
					f["output_bytes"] != float64(len(reversed))):
					t.Errorf("tool_call line %v, want turn 0, echo's input and output", f)
				}
			}
			if b := sessionResult(t, p.dir); !strings.HasPrefix(b, c.result) {
				t.Errorf("out/result.txt = %q, want %q", b, c.result)
			}
		})
	}
}
