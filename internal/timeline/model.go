package timeline

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/agent/transcript"
)

// Session is a run as the viewers show it, built from its transcript.
// Every string in it is printable (see printable): it came from a file a
// guest can write, with text from guests and models.
type Session struct {
	ID, Capsule string
	// Start and End are the first and last times the transcript records.
	Start, End time.Time
	Tasks      []*Task
	// Loose are the steps outside any task (a session's hooks).
	Loose []*Step
	// Problems are the lines that could not be read, and why.
	Problems []string
}

// Task is one task: its steps in the order they started, and by turn.
type Task struct {
	N                         int // from 1, in the transcript's order
	ID, ContextID, Source     string
	Status                    string // "" while it had not ended
	Start, End                time.Time
	Input, Answer             Text
	Turns                     uint32
	InputTokens, OutputTokens uint64
	Steps                     []*Step
	ByTurn                    []*Turn
}

// Span is when the task ran: from its start to its end, or to the last
// thing recorded of it when it did not end.
func (t *Task) Span() (start, end time.Time) {
	start, end = t.Start, t.End
	for _, st := range t.Steps {
		if start.IsZero() || st.Start.Before(start) {
			start = st.Start
		}
		if last := st.Start.Add(st.Duration); last.After(end) {
			end = last
		}
	}
	return start, end
}

// TurnCount is how many turns the task took: task_end's count, or the
// turns recorded when it did not end.
func (t *Task) TurnCount() int {
	if t.Status != "" {
		return int(t.Turns)
	}
	return len(t.ByTurn)
}

// Tokens are the task's input and output tokens: task_end's totals, or
// the recorded turns' sums when it did not end.
func (t *Task) Tokens() (in, out uint64) {
	if t.Status != "" {
		return t.InputTokens, t.OutputTokens
	}
	for _, tn := range t.ByTurn {
		in, out = in+tn.InputTokens, out+tn.OutputTokens
	}
	return in, out
}

// Turn is one turn's steps and tokens.
type Turn struct {
	N                         uint32
	InputTokens, OutputTokens uint64
	// Reported is whether the provider reported the tokens (else they
	// are mur's estimates).
	Reported bool
	Steps    []*Step
}

// Step is one model call, tool call, hook or compaction.
type Step struct {
	Kind string // model, tool, hook, compaction
	// Class is what the timeline colours it by: model, tool (wasm,
	// native, skill), shell, hook, compaction.
	Class                        string
	Name, ToolKind, HookEvent    string
	Turn                         uint32
	Start, End                   time.Time
	Duration                     time.Duration
	Ended                        bool
	Status, Decision, StopReason string
	Error                        Text
	In, Out                      Text
	Messages, FirstMessage       int
	Sent                         []Message // In parsed, for a model call
	Answer                       *Answer   // Out parsed, for a model call
	Streamed                     string    // what had streamed of an answer without a whole one
	InputTokens, OutputTokens    uint64
	UsageReported                bool
	ExitCode                     *int32
	Signal                       string
	Cancelled                    bool
}

// Text is a text as recorded: Bytes is its size before the transcript
// cut it, when it did.
type Text struct {
	S         string
	Truncated bool
	Bytes     int
}

// Build makes the Session of a transcript's entries, in time linear in
// their number (a guest may have written a great many).
func Build(f transcript.File) *Session {
	b := builder{s: &Session{Problems: printableAll(f.Problems)}, open: map[string]*Task{},
		pending: map[stepKey][]*Step{}, turns: map[turnKey]*Turn{}, streamed: map[*Step]*strings.Builder{}}
	for i := range f.Entries {
		b.add(&f.Entries[i])
	}
	for st, sb := range b.streamed {
		st.Streamed = sb.String()
	}
	for _, t := range b.s.Tasks {
		slices.SortStableFunc(t.Steps, func(x, y *Step) int { return x.Start.Compare(y.Start) })
		slices.SortStableFunc(t.ByTurn, func(x, y *Turn) int { return cmp.Compare(x.N, y.N) })
	}
	return b.s
}

type builder struct {
	s    *Session
	open map[string]*Task
	// pending are the steps started and not yet ended, oldest first.
	pending map[stepKey][]*Step
	turns   map[turnKey]*Turn
	// streamed is what streamed of each model call's answer.
	streamed map[*Step]*strings.Builder
}

// stepKey is what pairs a step's end with its start: its task (nil
// outside every task), kind and turn, and a tool's or hook's name and a
// hook's event.
type stepKey struct {
	t           *Task
	kind        string
	turn        uint32
	name, event string
}

type turnKey struct {
	t *Task
	n uint32
}

func keyOf(t *Task, kind string, e *transcript.Entry) stepKey {
	k := stepKey{t: t, kind: kind}
	if e.Turn != nil {
		k.turn = *e.Turn
	}
	if kind == "tool" || kind == "hook" {
		k.name, k.event = e.Name, e.HookEvent
	}
	return k
}

func (b *builder) add(e *transcript.Entry) {
	s := b.s
	if s.Start.IsZero() || e.Time.Before(s.Start) {
		s.Start = e.Time
	}
	if e.Time.After(s.End) {
		s.End = e.Time
	}
	if e.Kind == transcript.KindSession {
		s.ID, s.Capsule = printable(e.SessionID, true), printable(e.Capsule, true)
		return
	}
	t := b.task(e)
	switch e.Kind {
	case "task_start":
		t.Source, t.Input, t.Start = printable(e.Source, true), text(e.Text, e.TextBytes), e.Time
	case "task_end":
		t.Status, t.Answer, t.End = printable(e.Status, true), text(e.Text, e.TextBytes), e.Time
		t.Turns, t.InputTokens, t.OutputTokens = e.Turns, e.InputTokens, e.OutputTokens
		delete(b.open, e.TaskID)
	case "model_start", "tool_start", "hook_start", "compaction_start":
		b.start(t, e)
	case "model_end", "tool_end", "hook_end", "compaction_end":
		b.end(t, e)
	case "model_text":
		if q := b.pending[keyOf(t, "model", e)]; len(q) > 0 {
			sb := b.streamed[q[0]]
			if sb == nil {
				sb = &strings.Builder{}
				b.streamed[q[0]] = sb
			}
			sb.WriteString(printable(e.Text, false))
		}
	}
}

// task is the task e belongs to: the open one of its id, a new one at a
// task_start or for an id not seen open, or none (nil) for a step
// outside every task.
func (b *builder) task(e *transcript.Entry) *Task {
	if t := b.open[e.TaskID]; t != nil && e.Kind != "task_start" {
		return t
	}
	if e.TaskID == "" && e.Kind != "task_start" {
		return nil
	}
	t := &Task{N: len(b.s.Tasks) + 1, ID: printable(e.TaskID, true), ContextID: printable(e.ContextID, true), Start: e.Time}
	b.s.Tasks = append(b.s.Tasks, t)
	b.open[e.TaskID] = t
	return t
}

var stepKinds = map[string]string{"model_start": "model", "model_end": "model", "tool_start": "tool",
	"tool_end": "tool", "hook_start": "hook", "hook_end": "hook", "compaction_start": "compaction", "compaction_end": "compaction"}

func (b *builder) start(t *Task, e *transcript.Entry) {
	st := &Step{Kind: stepKinds[e.Kind], Name: printable(e.Name, true), ToolKind: printable(e.ToolKind, true),
		HookEvent: printable(e.HookEvent, true), Start: e.Time, In: text(e.Text, e.TextBytes),
		InputTokens: e.InputTokens, Messages: e.Messages}
	if e.Turn != nil {
		st.Turn = *e.Turn
	}
	if e.FirstMessage != nil {
		st.FirstMessage = *e.FirstMessage
	}
	if st.Kind == "model" && !st.In.Truncated {
		st.Sent, _ = parseMessages(e.Text)
	}
	st.Class = class(st)
	b.place(t, st)
	k := keyOf(t, st.Kind, e)
	b.pending[k] = append(b.pending[k], st)
}

func (b *builder) end(t *Task, e *transcript.Entry) {
	kind := stepKinds[e.Kind]
	k := keyOf(t, kind, e)
	var st *Step
	if q := b.pending[k]; len(q) > 0 {
		st = q[0]
		if len(q) == 1 {
			delete(b.pending, k)
		} else {
			b.pending[k] = q[1:]
		}
	} else {
		// An end whose start is not in the file: placed by its duration.
		st = &Step{Kind: kind, Name: printable(e.Name, true), ToolKind: printable(e.ToolKind, true),
			HookEvent: printable(e.HookEvent, true), Start: e.Time.Add(-e.Duration())}
		if e.Turn != nil {
			st.Turn = *e.Turn
		}
		b.place(t, st)
	}
	st.Ended, st.End, st.Duration = true, e.Time, e.Duration()
	if st.Duration == 0 && e.Time.After(st.Start) {
		st.Duration = e.Time.Sub(st.Start)
	}
	st.Status, st.Decision, st.StopReason = printable(e.Status, true), printable(e.Decision, true), printable(e.StopReason, true)
	st.Out, st.Error = text(e.Text, e.TextBytes), text(e.Error, e.ErrorBytes)
	if e.ToolKind != "" {
		st.ToolKind = printable(e.ToolKind, true)
	}
	st.OutputTokens, st.UsageReported, st.ExitCode, st.Signal, st.Cancelled = e.OutputTokens, e.UsageReported, e.ExitCode, printable(e.Signal, true), e.Cancelled
	if kind == "model" {
		if e.InputTokens != 0 {
			st.InputTokens = e.InputTokens
		}
		if e.Text != "" && e.TextBytes == 0 {
			if a, ok := parseAnswer(e.Text); ok {
				st.Answer = &a
			}
		}
		if e.Text != "" {
			// The whole answer supersedes what streamed of it.
			delete(b.streamed, st)
		}
		if t != nil {
			tn := b.turn(t, st.Turn)
			tn.InputTokens, tn.OutputTokens, tn.Reported = st.InputTokens, st.OutputTokens, st.UsageReported
		}
	}
	st.Class = class(st)
}

// place adds st to its task (or to the session's loose steps).
func (b *builder) place(t *Task, st *Step) {
	if t == nil {
		b.s.Loose = append(b.s.Loose, st)
		return
	}
	t.Steps = append(t.Steps, st)
	tn := b.turn(t, st.Turn)
	tn.Steps = append(tn.Steps, st)
}

func (b *builder) turn(t *Task, n uint32) *Turn {
	k := turnKey{t, n}
	if tn := b.turns[k]; tn != nil {
		return tn
	}
	tn := &Turn{N: n}
	t.ByTurn = append(t.ByTurn, tn)
	b.turns[k] = tn
	return tn
}

// class is what a step is coloured by.
func class(st *Step) string {
	if st.Kind == "tool" && st.ToolKind == "shell" {
		return "shell"
	}
	return st.Kind
}

// text is a recorded text; n its size before the cut, 0 when uncut.
func text(s string, n int) Text {
	return Text{S: printable(s, false), Truncated: n > 0, Bytes: n}
}

func printableAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = printable(s, true)
	}
	return out
}
