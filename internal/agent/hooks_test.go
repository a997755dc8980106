package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// recHooks records every hook point called and answers as configured.
type recHooks struct {
	NoHooks
	mu         sync.Mutex
	calls      []string
	inferences []HookInference
	faults     []HookFault
	compaction func(CompactionEvent) (*Replacement, error)
	reopen     []*Reopen
	artifacts  []HookArtifact
}

func (h *recHooks) note(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, s)
}

func (h *recHooks) SessionStart(context.Context, SessionContext) error {
	h.note("session-start")
	return nil
}
func (h *recHooks) TaskStart(context.Context, TaskStartEvent) { h.note("task-start") }
func (h *recHooks) Inference(_ context.Context, e InferenceEvent) []HookArtifact {
	h.note("inference:" + e.Decision)
	return h.artifacts
}
func (h *recHooks) ToolCall(_ context.Context, e ToolEvent) {
	h.note("tool-call:" + e.ToolName + ":" + e.Status)
}
func (h *recHooks) Shell(_ context.Context, e ShellEvent) { h.note("shell:" + e.Command) }
func (h *recHooks) Compaction(_ context.Context, e CompactionEvent) (*Replacement, error) {
	h.note("compaction")
	if h.compaction == nil {
		return nil, nil
	}
	return h.compaction(e)
}
func (h *recHooks) TaskEnd(_ context.Context, e TaskEndEvent) *Reopen {
	h.note("task-end:" + e.ExitStatus)
	if len(h.reopen) == 0 {
		return nil
	}
	r := h.reopen[0]
	h.reopen = h.reopen[1:]
	return r
}
func (h *recHooks) SessionEnd(_ context.Context, e SessionEndEvent) { h.note("session-end") }
func (h *recHooks) TakeInferences() []HookInference {
	out := h.inferences
	h.inferences = nil
	return out
}
func (h *recHooks) TakeFaults() []HookFault {
	out := h.faults
	h.faults = nil
	return out
}
func (h *recHooks) Close(context.Context) error { h.note("close"); return nil }

// recEvents records the events of a task.
type recEvents struct{ got []string }

func (e *recEvents) Status(s StatusEvent) {
	r := ""
	if s.Response != nil {
		r = "=" + *s.Response
	}
	e.got = append(e.got, "status:"+s.State+":"+s.Message+r)
}
func (e *recEvents) Artifact(n, c string) { e.got = append(e.got, "artifact:"+n+":"+c) }
func (e *recEvents) Text(t string)        { e.got = append(e.got, "text:"+t) }

// oneTask is a TaskSource of the given tasks, in order.
type oneTask struct{ tasks []Task }

func (o *oneTask) Next(context.Context) (Task, bool, error) {
	if len(o.tasks) == 0 {
		return Task{}, false, nil
	}
	t := o.tasks[0]
	o.tasks = o.tasks[1:]
	return t, true, nil
}
func (o *oneTask) Done(context.Context, Task, TaskResult) {}

func run(t *testing.T, s stage.LoopView, d tools.Tool, h Hooks, src TaskSource) error {
	t.Helper()
	set := tools.NewToolSet()
	set.Add("t", toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
		return tools.ToolResult{Status: tools.StatusPassed, Data: tools.Str("ok"),
			Metadata: []tools.Pair{{Key: "state_effect", Value: "mutate"}, {Key: "state_effect", Value: "read"}, {Key: "resource_id", Value: "doc-7"}}}, nil
	}))
	_, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: set, Allowlist: []string{"t"}, Hooks: h, Tasks: src})
	return err
}

// Hook points fire in wit.md §6.4's order; hook run-inference records come
// before the turn's own inference line and before each tool_call; faults
// are recorded before every session_end; the tool result's metadata
// reaches its tool_call record.
func TestHookPointsAndTheirRecords(t *testing.T) {
	s := testStaged(t, nil)
	h := &recHooks{inferences: []HookInference{{Hook: "judge", Model: "small", InputTokens: 5, OutputTokens: 2, Decision: "end_turn"}},
		faults: []HookFault{{Hook: "judge", Event: "on-tool-call", Arm: "error"}}}
	ev := &recEvents{}
	err := run(t, s, &driver{answers: []tools.ToolResult{passed(callT), passed(endText)}}, h,
		&oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1", Source: "task_md", Events: ev}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"session-start", "task-start", "inference:tool_call", "tool-call:t:ok", "inference:end_turn", "task-end:ok", "session-end", "close"}
	if !slices.Equal(h.calls, want) {
		t.Errorf("hook calls\n got  %v\n want %v", h.calls, want)
	}
	lines := readTrace(t, s)
	got := types(lines)
	wantTrace := []string{"task_start", "session_start", "inference:end_turn", "inference:tool_call", "tool_call", "inference:end_turn", "hook_dispatch_error", "session_end:ok", "task_end:ok"}
	if !slices.Equal(got, wantTrace) {
		t.Errorf("trace\n got  %v\n want %v", got, wantTrace)
	}
	if f := lines[2].Fields; f["origin"] != "hook:judge" || f["model"] != "small" {
		t.Errorf("hook inference line %v", f)
	}
	tc := find(lines, trace.TypeToolCall)[0]
	if tc.Fields["state_effect"] != "mutate" || tc.Fields["resource_id"] != "doc-7" || tc.Fields["input_bytes"] != float64(9) {
		t.Errorf("tool_call %v: want the first state_effect, the resource_id and the input's size", tc.Fields)
	}
	wantKeys := []string{"event_type", "session_id", "timestamp", "turn", "tool_name", "input", "input_bytes", "output_bytes", "duration_ms", "status", "state_effect", "resource_id"}
	if !slices.Equal(tc.Keys, wantKeys) {
		t.Errorf("tool_call keys %v, want %v", tc.Keys, wantKeys)
	}
	wantEvents := []string{"status:working:inference turn 1", "artifact:t:ok", "status:working:inference turn 2", "text:hi", "status:completed:=hi"}
	if !slices.Equal(ev.got, wantEvents) {
		t.Errorf("events\n got  %v\n want %v", ev.got, wantEvents)
	}
}

// chunkyDriver streams a chunk through the task's TaskIO before answering.
type chunkyDriver struct{}

func (chunkyDriver) Invoke(ctx context.Context, _ tools.ToolInput) (tools.ToolResult, error) {
	tools.TaskIOFrom(ctx).EmitChunk(ctx, "h", false)
	return passed(endText), nil
}

type nopIO struct{ chunks []string }

func (n *nopIO) EmitChunk(_ context.Context, text string, _ bool) { n.chunks = append(n.chunks, text) }
func (n *nopIO) RequestInput(context.Context, string) (string, error) {
	return "", errors.New("no")
}

// A driver that streamed closes its turn with an empty text event and
// gets no full-text fallback.
func TestStreamedTurnEvents(t *testing.T) {
	s := testStaged(t, nil)
	ev, io := &recEvents{}, &nopIO{}
	if err := run(t, s, chunkyDriver{}, nil, &oneTask{tasks: []Task{{ID: "tsk_1", Source: "a2a", Events: ev, IO: io}}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"status:working:inference turn 1", "text:", "status:completed:=hi"}
	if !slices.Equal(ev.got, want) || !slices.Equal(io.chunks, []string{"h"}) {
		t.Errorf("events %v (chunks %v), want %v", ev.got, io.chunks, want)
	}
	if got := types(readTrace(t, s))[:2]; !slices.Equal(got, []string{"a2a_task_received", "task_start"}) {
		t.Errorf("an A2A task's first records are %v", got)
	}
}

// Compaction (session.md §3.4) with context.max_tokens small enough that
// every turn crosses the threshold.
func TestCompaction(t *testing.T) {
	window := uint32(10)
	summary := &Replacement{Hook: "squash", Messages: []HookMessage{{Role: "user", Content: `"summary so far"`}}}
	unpaired := &Replacement{Hook: "squash", Messages: []HookMessage{{Role: "user", Content: `[{"type":"text","text":"x"}]`},
		{Role: "assistant", Content: `[{"type":"tool_call","id":"9","name":"t","input":{}}]`}}}
	cases := []struct {
		name    string
		hook    func(CompactionEvent) (*Replacement, error)
		kind    Kind
		trace   []string
		log     string
		second0 string
	}{
		{"no replacement: logged, continue", nil, 0,
			[]string{"task_start", "session_start", "inference:tool_call", "tool_call", "inference:end_turn", "session_end:ok", "task_end:ok"},
			"[compaction] threshold reached but no hook returned replace-context; continuing without compaction", "do it"},
		{"replacement committed before the turn's tool results", func(CompactionEvent) (*Replacement, error) { return summary, nil }, 0,
			[]string{"task_start", "session_start", "inference:tool_call", "compaction", "tool_call", "inference:end_turn", "compaction", "session_end:ok", "task_end:ok"},
			"[compaction] hook compaction at turn 0; new session_tokens:", "summary so far"},
		{"unpaired tool calls: discarded", func(CompactionEvent) (*Replacement, error) { return unpaired, nil }, 0,
			[]string{"task_start", "session_start", "inference:tool_call", "tool_call", "inference:end_turn", "session_end:ok", "task_end:ok"},
			"[compaction] compacted result has an unresolved tool_call; continuing without compaction", "do it"},
		{"hook error fails the attempt (13)", func(CompactionEvent) (*Replacement, error) { return nil, errors.New("squash: boom") }, KindCompaction,
			[]string{"task_start", "session_start", "inference:tool_call", "session_end:failed", "task_end:ok"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStaged(t, func(cp *manifest.Capsule) {
				cp.ContextMaxTokens = &window
				cp.Inference.Compaction = &manifest.Compaction{DumpSummaries: true}
			})
			d := &driver{answers: []tools.ToolResult{passed(callT), passed(endText)}}
			err := run(t, s, d, &recHooks{compaction: c.hook}, &oneTask{tasks: []Task{{ID: "tsk_1"}}})
			var e *diag.Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || KindOf(err) != c.kind) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			if got := types(readTrace(t, s)); !slices.Equal(got, c.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, c.trace)
			}
			log, _ := os.ReadFile(filepath.Join(s.LogsDir, "bootstrap.log"))
			if !strings.Contains(string(log), c.log) {
				t.Errorf("bootstrap.log lacks %q:\n%s", c.log, log)
			}
			if c.kind != 0 {
				if r := readFile(t, filepath.Join(s.OutDir, "result.txt")); r != "error: compaction hook failed: squash: boom" {
					t.Errorf("result %q", r)
				}
				return
			}
			msgs := d.requests[1]["messages"].([]any)
			first := msgs[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
			if first != c.second0 || len(msgs) != 3 {
				t.Errorf("second request starts %q with %d messages, want %q then the turn's assistant and tool messages", first, len(msgs), c.second0)
			}
		})
	}
}

// A driver's continuation_id makes the next request carry only what it
// has not seen, with the id (session.md §3.6); tokens are still counted
// on the whole conversation.
func TestContinuation(t *testing.T) {
	s := testStaged(t, nil)
	d := &driver{answers: []tools.ToolResult{passed(callT, tools.Pair{Key: "continuation_id", Value: "k1"}), passed(endText)}}
	if err := run(t, s, d, nil, &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}); err != nil {
		t.Fatal(err)
	}
	second := d.requests[1]
	msgs := second["messages"].([]any)
	if second["continuation_id"] != "k1" || len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "assistant" {
		t.Errorf("second request: continuation_id %v, messages %v", second["continuation_id"], msgs)
	}
	infs := find(readTrace(t, s), trace.TypeInference)
	if infs[1].Fields["input_tokens"].(float64) <= infs[0].Fields["input_tokens"].(float64) {
		t.Errorf("input_tokens of the continued turn %v not counted on the whole conversation (first %v)", infs[1].Fields["input_tokens"], infs[0].Fields["input_tokens"])
	}
}

// Threaded conversations (session.md §3.7): the second task of a context
// starts from the first's history; a context id that is not one path
// element never places a file outside contexts/.
func TestThreaded(t *testing.T) {
	s := testStaged(t, func(c *manifest.Capsule) { c.Lifecycle.Conversation = "threaded" })
	d := &driver{answers: []tools.ToolResult{passed(endText)}}
	err := run(t, s, d, nil, &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_a", Source: "a2a"},
		{ID: "tsk_2", ContextID: "ctx_a", Source: "a2a"}, {ID: "tsk_3", ContextID: "../out", Source: "a2a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.requests[1]["messages"].([]any)); n != 3 {
		t.Errorf("the second task's request has %d messages, want the first exchange and its own task", n)
	}
	if n := len(d.requests[2]["messages"].([]any)); n != 1 {
		t.Errorf("another context's request has %d messages", n)
	}
	hist := readFile(t, filepath.Join(s.SessionDir, "contexts", "ctx_a", "history.json"))
	if strings.Count(hist, `"role":"assistant"`) != 2 {
		t.Errorf("history.json = %s", hist)
	}
	if r := readFile(t, filepath.Join(s.OutDir, "result_tsk_2.txt")); r != "hi" {
		t.Errorf("result_tsk_2.txt = %q", r)
	}
	if _, err := os.Stat(filepath.Join(s.OutDir, "history.json")); err == nil {
		t.Error("context id ../out wrote out/history.json")
	}
}

// Reopening (session.md §3.5): a granted reopen runs another attempt on
// the rewritten task.md; past the budget the task ends
// reopen_budget_exhausted and fails.
func TestReopen(t *testing.T) {
	cases := []struct {
		name    string
		reopens uint32
		kind    Kind
		trace   []string
	}{
		{"granted", 1, 0, []string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_reopened",
			"session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{"max_task_reopens 0", 0, KindReopen, []string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:reopen_budget_exhausted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStaged(t, func(cp *manifest.Capsule) { cp.Inference.MaxTaskReopens = c.reopens })
			h := &recHooks{reopen: []*Reopen{{Hook: "critic", Reason: "  cite sources  "}}}
			d := &driver{answers: []tools.ToolResult{passed(endText)}}
			err := run(t, s, d, h, &oneTask{tasks: []Task{{ID: "tsk_1"}}})
			var e *diag.Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || KindOf(err) != c.kind || e.Code != CodeTask) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			lines := readTrace(t, s)
			if got := types(lines); !slices.Equal(got, c.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, c.trace)
			}
			if c.kind != 0 {
				return
			}
			starts := find(lines, trace.TypeSessionStart)
			if starts[1].Fields["max_turns"] != float64(9) {
				t.Errorf("the second attempt's max_turns = %v, want the 9 left", starts[1].Fields["max_turns"])
			}
			task := readFile(t, filepath.Join(s.AccessibleDir, "task.md"))
			if !strings.HasPrefix(task, "do it\n\n---\n\n# Reopen feedback\n\n") || !strings.HasSuffix(task, "## Reopen 1 — from hook `critic`\n\ncite sources\n") {
				t.Errorf("task.md = %q", task)
			}
			sent := d.requests[1]["messages"].([]any)[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
			if sent != task {
				t.Errorf("the second attempt was sent %q", sent)
			}
		})
	}
}
