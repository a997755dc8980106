package hooks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/stage"
)

// Each lifecycle call a hook serves, blocking or async, reaches the
// session's observer as a start and an end naming the hook and the
// event, with how it ended and a failure's text without the session's
// secrets; a hook bound to another event is not called and reports
// nothing.
func TestHooksObserved(t *testing.T) {
	s := staged(t, blocking("answer", hookAnswer050), blocking("tools-only", hookErrs).bound(fnToolCall), blocking("errs", hookErrs).async(""))
	// hook-errs fails each call with the event's name; hook-answer
	// refuses a tool call with "tool-call refused".
	s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, redact.New("tool-call"))
	var got []observe.Event
	obs := observe.Serial(observe.Func(func(e observe.Event) { got = append(got, e) }))
	r := startRuntime(t, Options{Staged: s, Observer: obs})
	ctx := context.Background()
	if err := r.SessionStart(ctx, sessionCtx); err != nil {
		t.Fatal(err)
	}
	r.ToolCall(ctx, agent.ToolEvent{Turn: 1, ToolName: "t", Status: "ok"})
	r.Close(ctx)

	var blockingSteps []string
	async := map[string]int{}
	for i, e := range got {
		step := fmt.Sprintf("%s:%s:%s:%s:%s", e.Kind, e.Name, e.HookEvent, e.Status, e.Err)
		if e.Time.IsZero() || e.Kind == observe.HookEnd && e.Duration < 0 {
			t.Errorf("event %d without a time: %s", i, step)
		}
		if strings.Contains(e.Err, "tool-call") {
			t.Errorf("event %d carries the secret: %s", i, step)
		}
		if e.Name == "errs" {
			async[step]++
			continue
		}
		blockingSteps = append(blockingSteps, step)
	}
	want := []string{
		"hook_start:answer:on-session-start::", "hook_end:answer:on-session-start:ok:",
		"hook_start:answer:on-tool-call::", "hook_end:answer:on-tool-call:error:[REDACTED] refused",
		"hook_start:tools-only:on-tool-call::", "hook_end:tools-only:on-tool-call:error:on-[REDACTED]",
	}
	if !slices.Equal(blockingSteps, want) {
		t.Errorf("blocking hooks' events\n got  %q\n want %q", blockingSteps, want)
	}
	for _, step := range []string{"hook_start:errs:on-session-start::", "hook_end:errs:on-session-start:error:on-session-start",
		"hook_start:errs:on-tool-call::", "hook_end:errs:on-tool-call:error:on-[REDACTED]"} {
		if async[step] != 1 {
			t.Errorf("async hook: %q seen %d times (%v)", step, async[step], async)
		}
	}
}
