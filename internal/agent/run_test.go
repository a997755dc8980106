package agent

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/tools"
)

// fakeShell is a ShellRunner that "runs" every command.
type fakeShell struct{ err error }

func (f fakeShell) RunShell(_ context.Context, bin, input string) (tools.ShellOutcome, error) {
	if f.err != nil {
		return tools.ShellOutcome{}, f.err
	}
	return tools.ShellOutcome{Text: "$ ls\nExit code: 0", Ran: true, Binary: "/bin/" + bin, Command: "ls", Stdout: "a\n"}, nil
}

// Every row of session.md §3.2's table and every failure path: what the
// trace holds, in order, what out/result.txt says and how the task ends.
func TestTurnTable(t *testing.T) {
	call := func(name string) string {
		return `{"stop_reason":"tool_call","content":[{"type":"tool_call","id":"1","name":"` + name + `","input":{}}]}`
	}
	trapped := toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
		return tools.ToolResult{}, errors.New("tool 'd' trapped: unreachable")
	})
	cases := []struct {
		name     string
		answers  []tools.ToolResult
		driver   tools.Tool
		maxTurns uint32
		shell    tools.ShellRunner
		kind     Kind
		result   string
		trace    []string
	}{
		{name: "end_turn (15)", answers: []tools.ToolResult{passed(endText)}, result: "hi",
			trace: []string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "max_tokens ends with its text (15)", answers: []tools.ToolResult{passed(`{"stop_reason":"max_tokens","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`)},
			result: "a\nb", trace: []string{"task_start", "session_start", "inference:text", "session_end:ok", "task_end:ok"}},
		{name: "tool call then end (14)", answers: []tools.ToolResult{passed(callT), passed(endText)}, result: "hi",
			trace: []string{"task_start", "session_start", "inference:tool_call", "tool_call", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "skill call is a skill_call (14, §2.4 #3)", answers: []tools.ToolResult{passed(call("guide")), passed(endText)}, result: "hi",
			trace: []string{"task_start", "session_start", "inference:tool_call", "skill_call", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "shell command that ran has its shell record after its tool_call", shell: fakeShell{},
			answers: []tools.ToolResult{passed(call("sh")), passed(endText)}, result: "hi",
			trace: []string{"task_start", "session_start", "inference:tool_call", "tool_call", "shell", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "shell runner failure is session-fatal after its tool_call", shell: fakeShell{err: errors.New("sandbox refused")},
			answers: []tools.ToolResult{passed(call("sh"))}, kind: KindTool, result: "error: shell tool 'sh' failed: sandbox refused",
			trace: []string{"task_start", "session_start", "inference:tool_call", "tool_call", "task_end:failed", "session_end:failed"}},
		{name: "max turns", maxTurns: 2, answers: []tools.ToolResult{passed(callT)}, kind: KindMaxTurns, result: "error: inference loop exceeded 2 turns",
			trace: []string{"task_start", "session_start", "inference:tool_call", "tool_call", "inference:tool_call", "tool_call", "session_end:max_turns_reached", "task_end:ok"}},
		{name: "driver status error (7): no inference line", answers: []tools.ToolResult{{Status: tools.StatusError, Summary: tools.Str("HTTP 401: no")}},
			kind: KindDriver, result: "error: HTTP 401: no", trace: []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{name: "stop_reason error (11)", answers: []tools.ToolResult{passed(`{"stop_reason":"error","error":"rate limited"}`)},
			kind: KindModelError, result: "error: rate limited", trace: []string{"task_start", "session_start", "inference:text", "session_end:failed", "task_end:ok"}},
		{name: "stop_reason error without text (11)", answers: []tools.ToolResult{passed(`{"stop_reason":"error"}`)},
			kind: KindModelError, result: "error: driver returned error", trace: []string{"task_start", "session_start", "inference:text", "session_end:failed", "task_end:ok"}},
		{name: "tool_call without blocks (14)", answers: []tools.ToolResult{passed(`{"stop_reason":"tool_call","content":[{"type":"text","text":"hm"}]}`)},
			kind: KindResponse, result: "error: response stop_reason=tool_call but no tool_call blocks were present",
			trace: []string{"task_start", "session_start", "inference:tool_call", "session_end:failed", "task_end:ok"}},
		{name: "unsupported stop_reason (16)", answers: []tools.ToolResult{passed(`{"stop_reason":"pause_turn","content":[]}`)},
			kind: KindResponse, result: "error: unsupported stop_reason 'pause_turn'",
			trace: []string{"task_start", "session_start", "inference:text", "session_end:failed", "task_end:ok"}},
		{name: "driver trap (5): Err, fallback session_end after task_end", driver: trapped, kind: KindDriver,
			result: "error: driver invocation failed: tool 'd' trapped: unreachable",
			trace:  []string{"task_start", "session_start", "task_end:failed", "session_end:failed"}},
		{name: "no data (8): Err", answers: []tools.ToolResult{{Status: tools.StatusPassed}}, kind: KindResponse,
			result: "error: driver returned no data", trace: []string{"task_start", "session_start", "task_end:failed", "session_end:failed"}},
		{name: "unparsable response (8): Err", answers: []tools.ToolResult{passed(`not json`)}, kind: KindResponse,
			result: "error: failed to parse driver response", trace: []string{"task_start", "session_start", "task_end:failed", "session_end:failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStaged(t, func(cp *manifest.Capsule) {
				if c.maxTurns != 0 {
					cp.Inference.MaxTurns = c.maxTurns
				}
				cp.Capabilities = &manifest.Capabilities{Shell: &manifest.ShellCaps{Allow: []string{"sh"}}}
			})
			set := tools.NewToolSet()
			set.Add("t", answering("ok"))
			d := c.driver
			if d == nil {
				d = &driver{answers: c.answers}
			}
			res, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: set, Allowlist: []string{"t"}, Shell: c.shell})
			var e *diag.Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || KindOf(err) != c.kind) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			if c.kind != 0 && res.Last.Err == nil {
				t.Error("the failed task's result carries no error")
			}
			if got := readFile(t, filepath.Join(s.OutDir, "result.txt")); !strings.HasPrefix(got, c.result) {
				t.Errorf("out/result.txt = %q, want %q", got, c.result)
			}
			if got := types(readTrace(t, s)); !slices.Equal(got, c.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, c.trace)
			}
		})
	}
}
