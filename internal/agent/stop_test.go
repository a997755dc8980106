package agent

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mur-go/mur/internal/tools"
)

// cancelable is a task's Events whose context the test can cancel, as
// A2A CancelTask does.
type cancelable struct {
	NoEvents
	cancel chan context.CancelFunc
}

func (c cancelable) Context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	c.cancel <- cancel
	return ctx, cancel
}

// listSource hands out tasks, then stops the session (as mur stop does)
// and waits for the stop.
type listSource struct {
	tasks []Task
	stop  context.CancelCauseFunc
}

func (s *listSource) Next(ctx context.Context) (Task, bool, error) {
	if len(s.tasks) == 0 {
		s.stop(errors.New("terminated"))
		<-ctx.Done()
		return Task{}, false, ctx.Err()
	}
	t := s.tasks[0]
	s.tasks = s.tasks[1:]
	return t, true, nil
}

func (s *listSource) Done(context.Context, Task, TaskResult) {}

// A served session's trace when its first task is cancelled mid tool
// call (the session goes on), its second finishes, and the session is
// then stopped while it waits: the interrupted call recorded, the first
// attempt and task cancelled, the second ok, and the stop recorded once
// at the end. A session stopped before any task records the stop alone.
func TestStoppedSessionTrace(t *testing.T) {
	tests := []struct {
		name  string
		tasks int
		want  []string
	}{
		{"stopped while waiting for its first task", 0, []string{"session_end:cancelled"}},
		{"a task cancelled, one finished, then stopped", 2, []string{
			"task_start", "session_start", "inference:tool_call", "tool_call", "session_end:cancelled", "task_end:cancelled",
			"task_start", "session_start", "inference:tool_call", "tool_call", "inference:end_turn", "session_end:ok", "task_end:ok",
			"session_end:cancelled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testStaged(t, nil)
			ctx, stop := context.WithCancelCause(context.Background())
			ev := cancelable{cancel: make(chan context.CancelFunc, 2)}
			src := &listSource{stop: stop}
			for i := range tt.tasks {
				src.tasks = append(src.tasks, Task{ID: "tsk_" + string(rune('a'+i)), ContextID: "ctx_a", Source: "task_md", Events: ev})
			}
			calls := 0
			tool := toolFunc(func(ctx context.Context, _ tools.ToolInput) (tools.ToolResult, error) {
				if calls++; calls == 1 { // the first task's call runs until its task is cancelled
					(<-ev.cancel)()
					<-ctx.Done()
					return tools.ToolResult{}, ctx.Err()
				}
				return passed("x"), nil
			})
			set := tools.NewToolSet()
			set.Add("t", tool)
			d := &driver{answers: []tools.ToolResult{passed(callT), passed(callT), passed(endText)}}
			res, err := Run(ctx, Options{Staged: s, Driver: d, Tools: set, Allowlist: []string{"t"}, Tasks: src})
			if KindOf(err) != KindCancelled {
				t.Errorf("Run = %+v, %v; want the session cancelled", res, err)
			}
			lines := readTrace(t, s)
			if got := types(lines); !slices.Equal(got, tt.want) {
				t.Errorf("trace\n got  %v\n want %v", got, tt.want)
			}
			if calls := find(lines, "tool_call"); len(calls) > 0 && (calls[0].Fields["cancelled"] != true || calls[0].Fields["status"] != "error") {
				t.Errorf("the interrupted call is recorded %v", calls[0].Fields)
			}
		})
	}
}
