package hooks

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent"
)

// An async hook's queue that overflows under on_overflow: drop discards
// and counts the events it cannot hold, one queue-overflow fault each,
// and the drain budget abandons a worker still busy at session end
// (wit.md §6.8). The worker is held by hook-spin's on-session-start.
func TestAsyncOverflowDrop(t *testing.T) {
	s := staged(t, blocking("spin", "hook-spin").async("drop").deadline(time.Minute))
	r := startRuntime(t, Options{Staged: s, QueueDepth: 4, DrainBudget: 100 * time.Millisecond})
	ctx := context.Background()
	if err := r.SessionStart(ctx, sessionCtx); err != nil {
		t.Fatal(err)
	}
	const events = 10
	for range events {
		r.ToolCall(ctx, agent.ToolEvent{})
	}
	faults := r.TakeFaults()
	// The worker may or may not have taken on-session-start off the queue
	// yet: the queue holds 4 either way.
	if n := len(faults); n != events-4 && n != events-3 {
		t.Fatalf("%d overflow faults, want %d or %d: %v", n, events-4, events-3, faults)
	}
	for _, f := range faults {
		if f != (agent.HookFault{Hook: "spin", Event: fnToolCall, Arm: "queue-overflow"}) {
			t.Fatalf("fault %v", f)
		}
	}
	start := time.Now()
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Close took %s with a 100ms drain budget", d)
	}
	if f := r.TakeFaults(); !slices.Equal(f, []agent.HookFault{{Hook: "spin", Event: "drain", Arm: "timeout"}}) {
		t.Errorf("drain faults = %v", f)
	}
	log := hookLog(t, s, "spin")
	want := []string{
		"hook 'spin' did not finish its queued lifecycle calls within the 100ms session-end drain budget; the remaining calls were abandoned",
		fmt.Sprintf("hook 'spin' discarded %d lifecycle event(s): its queue (4 deep) was full and the capsule manifest declares 'on_overflow: drop' for this hook", len(faults)),
	}
	if len(log) < 2 || !slices.Equal(log[len(log)-2:], want) {
		t.Errorf("log = %q, want it to end with %q", log, want)
	}
}

// Under on_overflow: block the loop waits for room instead: nothing is
// dropped, and by the time the last event is queued the worker has got
// past the spinning call (its deadline line is already logged).
func TestAsyncOverflowBlock(t *testing.T) {
	s := staged(t, blocking("spin", "hook-spin").async("block").deadline(300*time.Millisecond))
	r := startRuntime(t, Options{Staged: s, QueueDepth: 2})
	ctx := context.Background()
	if err := r.SessionStart(ctx, sessionCtx); err != nil {
		t.Fatal(err)
	}
	const events = 10
	for range events {
		r.ToolCall(ctx, agent.ToolEvent{})
	}
	deadline := "hook 'spin' on-session-start exceeded its 0.3s execution deadline (capabilities.limits.deadline_seconds) and was interrupted"
	if log := hookLog(t, s, "spin"); len(log) == 0 || log[0] != deadline {
		t.Errorf("log when the last event was queued = %q, want it to start with the deadline", log)
	}
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	faults := r.TakeFaults()
	if len(faults) != events+1 {
		t.Fatalf("%d faults, want %d (one error per processed call): %v", len(faults), events+1, faults)
	}
	for _, f := range faults {
		if f.Arm != "error" {
			t.Fatalf("fault %v: nothing may be dropped under block", f)
		}
	}
	if log := hookLog(t, s, "spin"); len(log) != events+1 {
		t.Errorf("%d log lines, want %d", len(log), events+1)
	}
}

// Async hooks get their events in dispatch order on one instance, their
// output discarded even for an arm a blocking hook would commit.
func TestAsyncOrderAndOutputDiscarded(t *testing.T) {
	s := staged(t, blocking("errs", hookErrs).async(""), blocking("answer", hookAnswer050).async(""))
	r := startRuntime(t, Options{Staged: s})
	ctx := context.Background()
	r.SessionStart(ctx, sessionCtx)
	if arts := r.Inference(ctx, agent.InferenceEvent{}); arts != nil {
		t.Errorf("async artifacts forwarded: %v", arts)
	}
	if rep, err := r.Compaction(ctx, compaction); rep != nil || err != nil {
		t.Errorf("async compaction = %+v, %v", rep, err)
	}
	r.TaskEnd(ctx, agentTaskEnd("t"))
	r.SessionEnd(ctx, agentSessionEnd())
	r.Close(ctx)
	want := []string{fnSessionStart, fnInference, fnCompaction, fnTaskEnd, fnSessionEnd}
	if got := hookLog(t, s, "errs"); !slices.Equal(got, want) {
		t.Errorf("async log = %q, want %q", got, want)
	}
	// hook-answer's stray arms are not faults: async output is discarded.
	for _, f := range r.TakeFaults() {
		if f.Hook == "answer" {
			t.Errorf("fault for discarded async output: %v", f)
		}
	}
}
