package cli

import (
	"bytes"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
)

// step is one thing that happens to the progress: an event, or a write
// of mur's own through its passthrough writer.
type step struct {
	e    observe.Event
	pass string
}

func ev(k observe.Kind, at time.Duration, e observe.Event) step {
	e.Kind, e.Time = k, t0.Add(at)
	return step{e: e}
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func exit(c int32) *int32 { return &c }

// The renderer, on a fixed sequence of events and a frozen clock: the
// lines it writes on a pipe, and on a terminal the status line drawn and
// erased around them, clipped to the terminal's width.
func TestProgressRendersEvents(t *testing.T) {
	const erase = "\r\x1b[K"
	twoTurns := []step{
		ev(observe.TaskStart, 0, observe.Event{TaskID: "tsk_1", Source: "task_md", Input: "count\n  the words"}),
		ev(observe.ModelStart, 0, observe.Event{Name: "m", InputTokens: 100}),
		ev(observe.ModelEnd, 12*time.Millisecond, observe.Event{Status: "ok", Decision: "tool_call", Duration: 12 * time.Millisecond, OutputTokens: 20,
			Output: `{"stop_reason":"tool_call","content":[{"type":"text","text":"Let me\ncount."},{"type":"tool_call","id":"a","name":"wc"}]}`}),
		ev(observe.ToolStart, 0, observe.Event{Name: "wc", Input: `{"path":   "a.md"}`}),
		ev(observe.ToolEnd, 0, observe.Event{Name: "wc", Status: "ok", Duration: 3 * time.Millisecond, Output: "3 a.md"}),
		ev(observe.ToolStart, 0, observe.Event{Name: "x"}),
		ev(observe.ToolEnd, 0, observe.Event{Name: "x", Status: "error", Duration: 1500 * time.Millisecond, ExitCode: exit(1), Output: "boom\nat line 2"}),
		ev(observe.ModelStart, 0, observe.Event{Turn: 1, Name: "m", InputTokens: 140}),
		ev(observe.ModelText, 0, observe.Event{Text: "thinking hard", Thinking: true}),
		ev(observe.ModelText, 0, observe.Event{Text: "Done"}),
		ev(observe.ModelText, 0, observe.Event{Text: " here.\nBye"}),
		ev(observe.ModelEnd, 0, observe.Event{Status: "ok", Decision: "end_turn", Duration: 2 * time.Second, UsageReported: true, InputTokens: 150, OutputTokens: 5}),
		ev(observe.TaskEnd, 0, observe.Event{TaskID: "tsk_1", Status: "ok", Turns: 2, InputTokens: 250, OutputTokens: 25, Duration: 65 * time.Second}),
	}
	for _, tc := range []struct {
		name  string
		tty   bool
		width int
		steps []step
		want  string
	}{
		{"tool calls and streamed text", false, 80, twoTurns, "" +
			"task tsk_1 (task_md): count the words\n" +
			"turn 1 · m\n" +
			"  │ Let me count.\n" +
			"  tool_call · 12ms · ~100 in, 20 out tokens\n" +
			`  tool wc {"path": "a.md"} · ok · 3ms` + "\n" +
			"  tool x · error · 1.5s · exit 1 · boom at line 2\n" +
			"turn 2 · m\n" +
			"  │ Done here.\n" +
			"  │ Bye\n" +
			"  end_turn · 2.0s · 150 in, 5 out tokens\n" +
			"task tsk_1 ok · 2 turns · ~250 in, 25 out tokens · 1m05s\n"},
		{"failures", false, 80, []step{
			ev(observe.TaskStart, 0, observe.Event{TaskID: "tsk_2", Source: "a2a"}),
			ev(observe.ModelStart, 0, observe.Event{Name: "m"}),
			ev(observe.ModelEnd, 0, observe.Event{Status: "error", Duration: 40 * time.Millisecond, Err: "driver: HTTP 500"}),
			ev(observe.ToolEnd, 0, observe.Event{Name: "sh", Status: "error", Cancelled: true, Signal: "SIGKILL", Duration: time.Millisecond}),
			ev(observe.CompactionStart, 0, observe.Event{}),
			ev(observe.CompactionEnd, 0, observe.Event{Status: "replaced", Duration: 7 * time.Millisecond}),
			ev(observe.TaskEnd, 0, observe.Event{TaskID: "tsk_2", Status: "failed", Turns: 1, Output: "agent task failed:\ndriver error", Duration: time.Second}),
		}, "" +
			"task tsk_2 (a2a)\n" +
			"turn 1 · m\n" +
			"  model error · 40ms · driver: HTTP 500\n" +
			"  tool sh · cancelled · 1ms · signal SIGKILL\n" +
			"  compaction · replaced · 7ms\n" +
			"task tsk_2 failed · 1 turn · 0 in, 0 out tokens · 1.0s · agent task failed: driver error\n"},
		{"mur's own lines end the streamed one", false, 80, []step{
			ev(observe.TaskStart, 0, observe.Event{TaskID: "t"}),
			ev(observe.ModelStart, 0, observe.Event{Name: "m"}),
			ev(observe.ModelText, 0, observe.Event{Text: "Hel"}),
			{pass: "warning: something\n"},
			ev(observe.ModelText, 0, observe.Event{Text: "lo"}),
			{pass: "no newline"},
			ev(observe.ModelText, 0, observe.Event{Text: "!\n"}),
		}, "" +
			"task t\n" +
			"turn 1 · m\n" +
			"  │ Hel\n" +
			"warning: something\n" +
			"  │ lo\n" +
			"no newline\n" +
			"  │ !\n"},
		{"a terminal", true, 80, twoTurns[:3], "" +
			"task tsk_1 (task_md): count the words\n" +
			erase + "[2.0s]" +
			erase + "turn 1 · m\n" +
			erase + "[2.0s] · turn 1 · waiting for m 2.0s" +
			erase + "  │ Let me count.\n" +
			erase + "[2.0s] · turn 1 · ~100 in, 20 out tokens" +
			erase + "  tool_call · 12ms · ~100 in, 20 out tokens\n" +
			erase + "[2.0s] · turn 1 · ~100 in, 20 out tokens" +
			erase},
		{"a narrow terminal, streaming", true, 22, []step{
			ev(observe.TaskStart, 0, observe.Event{TaskID: "t"}),
			ev(observe.ModelStart, 0, observe.Event{Name: "model"}),
			ev(observe.ModelText, 0, observe.Event{Text: "Hi"}),
			ev(observe.ModelEnd, 0, observe.Event{Status: "ok", Decision: "end_turn", Duration: time.Second, OutputTokens: 2}),
			ev(observe.TaskEnd, 0, observe.Event{TaskID: "t", Status: "ok", Turns: 1, Duration: 2 * time.Second}),
		}, "" +
			"task t\n" +
			erase + "[2.0s]" +
			erase + "turn 1 · model\n" +
			erase + "[2.0s] · turn 1 · wa…" +
			erase + "  │ Hi" +
			"\n  end_turn · 1.0s · ~0 in, 2 out tokens\n" +
			erase + "[2.0s] · turn 1 · ~0…" +
			erase + "task t ok · 1 turn · ~0 in, 0 out tokens · 2.0s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			p := newRunProgress(&out, tc.tty, func() int { return tc.width }, func() time.Time { return t0.Add(2 * time.Second) })
			own := p.pass(&out)
			for _, s := range tc.steps {
				if s.pass != "" {
					if _, err := own.Write([]byte(s.pass)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				p.Observe(s.e)
			}
			p.Close()
			if got := out.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s\n(%q)", got, tc.want, got)
			}
		})
	}
}
