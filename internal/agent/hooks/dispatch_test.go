package hooks

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent"
)

var (
	summaryMsg = []agent.HookMessage{{Role: "user", Content: `[{"type":"text","text":"summary"}]`}}
	compaction = agent.CompactionEvent{Messages: []agent.HookMessage{{Role: "user", Content: `[{"type":"text","text":"hi"}]`}},
		SessionTokens: 99, Threshold: 0.99}
)

// Every event with its fields reaches the hook typed for its version, and
// only the arm an event honours is committed (wit.md §6.3); any other arm
// is the fault log line plus a hook_dispatch_error record.
func TestHonouredArms(t *testing.T) {
	for _, tt := range []struct {
		guest  string
		faults []agent.HookFault
		reopen *agent.Reopen
	}{
		{guest: hookAnswer050, reopen: &agent.Reopen{Hook: "h", Reason: "try again"},
			faults: []agent.HookFault{{Hook: "h", Event: fnSessionStart, Arm: "artifact"}, {Hook: "h", Event: fnShell, Arm: "reopen-task"}}},
		{guest: hookAnswer020, faults: []agent.HookFault{{Hook: "h", Event: fnSessionStart, Arm: "artifact"}}},
	} {
		t.Run(tt.guest, func(t *testing.T) {
			s := staged(t, blocking("h", tt.guest))
			r := startRuntime(t, Options{Staged: s})
			ctx := context.Background()
			if err := r.SessionStart(ctx, sessionCtx); err != nil {
				t.Fatal(err)
			}
			r.TaskStart(ctx, agentTaskStart("tsk_1"))
			tool := "shell"
			arts := r.Inference(ctx, agent.InferenceEvent{Turn: 1, InputTokens: 10, OutputTokens: 5, Decision: "tool_call", ToolName: &tool})
			if want := []agent.HookArtifact{{Hook: "h", Content: "art-1"}}; !reflect.DeepEqual(arts, want) {
				t.Errorf("artifacts = %v, want %v", arts, want)
			}
			r.ToolCall(ctx, agent.ToolEvent{Turn: 1, ToolName: "shell", Status: "ok"})
			r.Shell(ctx, agent.ShellEvent{Turn: 1, Binary: "/bin/ls", Command: strings.Repeat("x", 500)})
			rep, err := r.Compaction(ctx, compaction)
			if err != nil || rep == nil || rep.Hook != "h" || !reflect.DeepEqual(rep.Messages, summaryMsg) {
				t.Errorf("compaction = %+v, %v", rep, err)
			}
			if got := r.TaskEnd(ctx, agentTaskEnd("tsk_1")); !reflect.DeepEqual(got, tt.reopen) {
				t.Errorf("reopen = %+v, want %+v", got, tt.reopen)
			}
			r.SessionEnd(ctx, agentSessionEnd())
			if got := r.TakeFaults(); !reflect.DeepEqual(got, tt.faults) {
				t.Errorf("faults = %v, want %v", got, tt.faults)
			}
			want := []string{unsupportedArm("h", "artifact", fnSessionStart), "tool-call refused"}
			if len(tt.faults) == 2 {
				want = slices.Insert(want, 2, unsupportedArm("h", "reopen-task", fnShell))
			}
			if got := hookLog(t, s, "h"); !slices.Equal(got, want) {
				t.Errorf("hook log = %q, want %q", got, want)
			}
		})
	}
}

func TestUnsupportedArmWording(t *testing.T) {
	want := "hook 'h' returned unsupported hook-output arm 'artifact' from 'on-session-start'; this event does not honor that arm, so the value was discarded"
	if got := unsupportedArm("h", "artifact", fnSessionStart); got != want {
		t.Errorf("got %q", got)
	}
}

// Combination rules (wit.md §6.4): artifacts of every blocking hook in
// staged order, the first replace-context and reopen-task win, a binding
// filters, and at on-compaction a blocking hook's error beats any
// replacement.
func TestCombination(t *testing.T) {
	s := staged(t, blocking("a", hookAnswer050), blocking("only-tools", hookErrs).bound(fnToolCall), blocking("b", hookAnswer050))
	r := startRuntime(t, Options{Staged: s})
	ctx := context.Background()
	arts := r.Inference(ctx, agent.InferenceEvent{Decision: "end_turn"})
	if want := []agent.HookArtifact{{Hook: "a", Content: "art-1"}, {Hook: "b", Content: "art-1"}}; !reflect.DeepEqual(arts, want) {
		t.Errorf("artifacts = %v", arts)
	}
	if rep, _ := r.Compaction(ctx, compaction); rep == nil || rep.Hook != "a" {
		t.Errorf("replacement from %+v, want hook a", rep)
	}
	if got := r.TaskEnd(ctx, agentTaskEnd("t")); got == nil || got.Hook != "a" {
		t.Errorf("reopen from %+v, want hook a", got)
	}
	if got := hookLog(t, s, "only-tools"); got != nil {
		t.Errorf("hook bound to on-tool-call ran for other events: %q", got)
	}
	r.ToolCall(ctx, agent.ToolEvent{})
	if got := hookLog(t, s, "only-tools"); !slices.Equal(got, []string{fnToolCall}) {
		t.Errorf("bound hook log = %q", got)
	}

	s = staged(t, blocking("errs", hookErrs), blocking("a", hookAnswer050))
	r = startRuntime(t, Options{Staged: s})
	rep, err := r.Compaction(ctx, compaction)
	if rep != nil || err == nil || err.Error() != "errs: on-compaction" {
		t.Errorf("compaction = %+v, %v; want the error errs: on-compaction", rep, err)
	}
}

// A hook spinning forever is interrupted at its own deadline, logged, and
// dispatch goes on to the next hook; a function with the wrong signature
// fails its call only (the typed check is per call).
func TestSpinningHookInterrupted(t *testing.T) {
	s := staged(t, blocking("spin", "hook-spin").deadline(200*time.Millisecond), blocking("next", hookAnswer050))
	r := startRuntime(t, Options{Staged: s})
	start := time.Now()
	if err := r.SessionStart(context.Background(), sessionCtx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("dispatch took %s", d)
	}
	want := "hook 'spin' on-session-start exceeded its 0.2s execution deadline (capabilities.limits.deadline_seconds) and was interrupted"
	if got := hookLog(t, s, "spin"); !slices.Equal(got, []string{want}) {
		t.Errorf("spin log = %q, want %q", got, want)
	}
	if f := r.TakeFaults(); len(f) != 1 || f[0].Hook != "next" {
		t.Errorf("faults = %v: the next hook must still have been called", f)
	}
	r.Inference(context.Background(), agent.InferenceEvent{})
	got := hookLog(t, s, "spin")
	if len(got) != 2 || !strings.HasPrefix(got[1], "hook 'spin' on-inference: type mismatch with parameters") {
		t.Errorf("spin log after a mistyped call = %q", got)
	}
}

// A hook's memory cap holds per call: an event too big for it fails that
// call as a resource limit, and the next hook still runs.
func TestHookMemoryCap(t *testing.T) {
	h := blocking("small", hookAnswer050)
	h.limits.MaxMemoryBytes = 256 << 10
	s := staged(t, h, blocking("next", hookAnswer050))
	r := startRuntime(t, Options{Staged: s})
	big := agent.CompactionEvent{Messages: []agent.HookMessage{{Role: "user", Content: strings.Repeat("x", 1<<20)}}}
	_, err := r.Compaction(context.Background(), big)
	want := "hook 'small' on-compaction exceeded its configured resource limits: linear memory growth to "
	if err == nil || !strings.HasPrefix(err.Error(), "small: "+want) || !strings.HasSuffix(err.Error(), "exceeds capabilities.limits.memory_bytes (262144)") {
		t.Fatalf("compaction error = %v", err)
	}
	if log := hookLog(t, s, "small"); len(log) != 1 || !strings.HasPrefix(log[0], want) {
		t.Errorf("log = %q", log)
	}
}
