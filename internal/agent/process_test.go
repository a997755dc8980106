package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// A transport: process attempt is one of Run's attempts: its
// session_start, the stream's inference and tool_call lines, its
// session_end and the task records come from the run's trace and
// totals (readTrace checks the counts invariant), its bridge calls run
// through the loop's dispatch and fire on-tool-call, and its failures are
// the loop's kinds.
func TestProcessAttempt(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "claude")
	if out, err := exec.Command("go", "build", "-o", cli, "./process/testdata/fakecli").CombinedOutput(); err != nil {
		t.Fatalf("building the fake CLI: %v\n%s", err, out)
	}
	cases := []struct {
		name, task string
		maxTurns   uint32
		reopen     bool
		kind       Kind
		result     string
		trace      []string
		hooks      []string
	}{
		{name: "a tool call through dispatch", task: `call t {"q":"x"}`, result: "done: answer to {\"q\":\"x\"}",
			trace: []string{"task_start", "session_start", "inference:tool_call", "tool_call", "inference:end_turn", "session_end:ok", "task_end:ok"},
			hooks: []string{"session-start", "task-start", "tool-call:t:ok", "task-end:ok", "session-end", "close"}},
		{name: "a skill is a skill_call, as in the loop", task: `call guide {}`, result: "done: Do it well.",
			trace: []string{"task_start", "session_start", "inference:tool_call", "skill_call", "inference:end_turn", "session_end:ok", "task_end:ok"},
			hooks: []string{"session-start", "task-start", "tool-call:guide:ok", "task-end:ok", "session-end", "close"}},
		// A CLI cannot hide a call from the hooks by leaving it out of its
		// stream: on-tool-call fires for what the bridge ran (the trace
		// pairs only what the stream reports, session.md §6).
		{name: "a call the stream hides still reaches on-tool-call", task: `quiet t {"q":"x"}`, result: "done: answer to {\"q\":\"x\"}",
			trace: []string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"},
			hooks: []string{"session-start", "task-start", "tool-call:t:ok", "task-end:ok", "session-end", "close"}},
		{name: "max_turns fails the attempt", task: "turns 3", maxTurns: 2, kind: KindMaxTurns,
			result: "error: the agent CLI exceeded inference.max_turns (2)",
			trace:  []string{"task_start", "session_start", "inference:end_turn", "inference:end_turn", "session_end:failed", "task_end:failed"}},
		{name: "a CLI exiting non-zero fails the attempt", task: "exit", kind: KindDriver, result: "error: the agent CLI '",
			trace: []string{"task_start", "session_start", "session_end:failed", "task_end:failed"}},
		{name: "a reopened task runs the CLI again with its turns left", task: "turns 1", reopen: true, result: "after turns",
			trace: []string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_reopened",
				"session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStaged(t, func(cp *manifest.Capsule) {
				cp.Inference.Transport, cp.Inference.Command, cp.Inference.SystemPrompt = "process", cli, "Be brief."
				if c.maxTurns != 0 {
					cp.Inference.MaxTurns = c.maxTurns
				}
			})
			s.Artifacts[0].Manifest = &manifest.Artifact{Name: "t", Runtime: "tool", Description: "Answers.",
				InputSchema: `{"type":"object","properties":{"q":{"type":"string"}}}`}
			s.Artifacts[1].Manifest = &manifest.Artifact{Name: "guide", Description: "A guide."}
			if err := os.WriteFile(filepath.Join(s.AccessibleDir, "task.md"), []byte(c.task), 0o644); err != nil {
				t.Fatal(err)
			}
			set := tools.NewToolSet()
			set.Add("t", toolFunc(func(_ context.Context, in tools.ToolInput) (tools.ToolResult, error) {
				text := "answer to " + *in.Data
				return tools.ToolResult{Status: tools.StatusPassed, Data: &text}, nil
			}))
			h := &recHooks{}
			if c.reopen {
				h.reopen = []*Reopen{{Hook: "judge", Reason: "again"}}
			}
			env := tools.SubprocessEnv{Getenv: func(k string) (string, bool) { return os.Getenv(k), k == "PATH" }}
			_, err := Run(context.Background(), Options{Staged: s, Tools: set, Allowlist: []string{"t"},
				Hooks: h, Process: &ProcessOptions{Env: env}})
			var e *diag.Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || KindOf(err) != c.kind) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			if got := readFile(t, filepath.Join(s.OutDir, stage.ResultFile)); !strings.HasPrefix(got, c.result) {
				t.Errorf("out/result.txt = %q, want %q", got, c.result)
			}
			lines := readTrace(t, s)
			if got := types(lines); !slices.Equal(got, c.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, c.trace)
			}
			for _, l := range find(lines, "inference") {
				if l.Fields["input_tokens"] != 0.0 || l.Fields["output_tokens"] != 0.0 {
					t.Errorf("inference line with tokens: %v", l.Fields)
				}
			}
			if starts := find(lines, "session_start"); c.reopen && starts[1].Fields["max_turns"] != float64(manifest.DefaultMaxTurns-1) {
				t.Errorf("the reopened attempt's max_turns = %v, want the task's turns left", starts[1].Fields["max_turns"])
			}
			if c.hooks != nil && !slices.Equal(h.calls, c.hooks) {
				t.Errorf("hooks\n got  %v\n want %v", h.calls, c.hooks)
			}
			var argv []string
			if err := json.Unmarshal([]byte(readFile(t, filepath.Join(s.AccessibleDir, "fake-argv.json"))), &argv); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(argv, "\x00"), "--system-prompt\x00"+processNotices+"\n\nBe brief.\x00") {
				t.Errorf("argv %q lacks the notices and the resolved prompt", argv)
			}
		})
	}
}
