package process_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/process"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// hostSecret is in the environment the runtime "has"; the CLI must never
// see it.
const hostSecret = "sk-ant-host-secret-0123456789"

// binDir holds the fake CLI as claude and as codex, built once.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fakecli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := build(dir)
	if code == 0 {
		os.Setenv("FAKECLI_DIR", dir)
		code = testguest.Main(m)
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func build(dir string) int {
	claude := filepath.Join(dir, "claude")
	if out, err := exec.Command("go", "build", "-o", claude, "./testdata/fakecli").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the fake CLI: %v\n%s", err, out)
		return 1
	}
	b, err := os.ReadFile(claude)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "codex"), b, 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func fakeCLI(name string) string { return filepath.Join(os.Getenv("FAKECLI_DIR"), name) }

// workdir is a bare session's: an accessible workdir and a session dir
// with out/.
func workdir(t *testing.T) stage.Workdir {
	t.Helper()
	dir := t.TempDir()
	s := stage.NewWorkdir(filepath.Join(dir, "work"), filepath.Join(dir, "ses"), nil)
	for _, d := range []string{s.AccessibleDir, s.OutDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

const notices = "NOTICE one.\nNOTICE two."

// options runs command on task with one echo tool and a host environment
// that holds a credential.
func options(t *testing.T, command, task string, d process.Dispatcher, tr process.Trace) process.Options {
	host := map[string]string{"PATH": os.Getenv("PATH"), "ANTHROPIC_API_KEY": hostSecret, "HOME": "/home/someone"}
	return process.Options{Workdir: workdir(t), Command: command, Model: "m-1", MaxTurns: 10, Task: task,
		Notices: notices, Prompt: "Be brief.", Tools: []process.ToolSpec{echoSpec}, Dispatcher: d, Trace: tr,
		Env: tools.SubprocessEnv{Getenv: func(k string) (string, bool) { v, ok := host[k]; return v, ok }}}
}

var echoSpec = process.ToolSpec{Name: "echo", Description: "Echoes its input.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`)}

// echo is a dispatcher answering every call with its name and input.
type echo struct {
	mu    sync.Mutex
	calls []string
}

func (e *echo) Call(_ context.Context, name, input string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls = append(e.calls, name+" "+input)
	return "echo:" + input, false
}

// trace keeps the records as one line each; fail makes the named record
// kind fail; onInference is told of each inference record.
type trace struct {
	mu          sync.Mutex
	lines       []string
	fail        string
	onInference func()
}

func (tr *trace) add(kind, line string) error {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if kind == tr.fail {
		return fmt.Errorf("disk full")
	}
	tr.lines = append(tr.lines, line)
	return nil
}

func (tr *trace) Inference(r process.InferenceRecord) error {
	err := tr.add("inference", fmt.Sprintf("inference %d %s %s", r.Turn, r.Decision, r.ToolName))
	if tr.onInference != nil {
		tr.onInference()
	}
	return err
}

func (tr *trace) ToolCall(r process.ToolCallRecord) error {
	return tr.add("tool_call", fmt.Sprintf("tool_call %d %s %s %d %q %d %s", r.Turn, r.ToolName, r.Input, r.InputBytes, r.Output, r.OutputBytes, r.Status))
}

func (tr *trace) SessionEnd(r process.SessionEndRecord) error {
	return tr.add("session_end", fmt.Sprintf("session_end %d %d %s", r.Turns, r.ToolCalls, r.ExitStatus))
}

func (tr *trace) text() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.lines, "\n")
}

// recorded reads what the fake CLI wrote into its working directory.
func recorded(t *testing.T, s stage.Workdir, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.AccessibleDir, name))
	if err != nil {
		t.Fatalf("the fake CLI recorded no %s: %v", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func result(t *testing.T, s stage.Workdir) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.OutDir, stage.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
