// Package observe is the agent loop's live account of a run, for those
// who watch it as it happens: the terminal's progress, the transcript,
// OpenTelemetry. trace.jsonl stays the record of what happened; an
// Observer sees each step as it starts and ends, with the text the trace
// leaves out (what the model was sent and said, what a tool returned),
// already without the session's secrets.
package observe

import "time"

// Kind is what an Event reports.
type Kind uint8

const (
	// TaskStart: a task begins (TaskID, ContextID, Source, Traceparent;
	// Input is the task's text when the loop has it).
	TaskStart Kind = iota + 1
	// TaskEnd: the task ended (Status: ok, failed, cancelled,
	// reopen_budget_exhausted; Output is the answer or the error text;
	// the task's totals in InputTokens, OutputTokens, Turns).
	TaskEnd
	// ModelStart: a model call is sent (Turn, Name the model, Input the
	// messages as the driver gets them, InputTokens mur's estimate).
	ModelStart
	// ModelText: a streamed piece of the model's answer (Text, Thinking).
	ModelText
	// ModelEnd: the model call answered (Decision, StopReason, Output the
	// response content, InputTokens and OutputTokens, UsageReported when
	// the provider reported them, Err when the call failed).
	ModelEnd
	// ToolStart: a tool call is dispatched (Turn, Name, ToolKind, Input).
	ToolStart
	// ToolEnd: it answered (Status ok or error, Output what the model is
	// told, ExitCode and Signal for a native tool, Cancelled).
	ToolEnd
	// HookStart and HookEnd: a lifecycle hook ran for HookEvent (Name the
	// hook; Status ok or error at the end).
	HookStart
	HookEnd
	// CompactionStart and CompactionEnd: the conversation was offered to
	// the compaction hooks (Status: replaced, kept).
	CompactionStart
	CompactionEnd
)

var kindNames = [...]string{"", "task_start", "task_end", "model_start", "model_text", "model_end",
	"tool_start", "tool_end", "hook_start", "hook_end", "compaction_start", "compaction_end"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one step of a run. Only the fields its Kind names are set.
type Event struct {
	Kind Kind
	Time time.Time
	// TaskID is the task the step belongs to ("" for a task with no id:
	// the attempt after an A2A wait timed out).
	TaskID, ContextID, Source, Traceparent string
	// Turn is the loop's turn, from 0.
	Turn uint32
	// Name is the model, the tool or the hook; ToolKind is wasm, native,
	// shell, skill or unknown; HookEvent the hook's event
	// (on-tool-call, …).
	Name, ToolKind, HookEvent string
	// Input and Output are the step's text in and out; Text a streamed
	// piece; Thinking marks a reasoning piece.
	Input, Output, Text string
	Thinking            bool
	// Status is how a step ended; Decision and StopReason a model call's;
	// Err a failure's text.
	Status, Decision, StopReason, Err string
	InputTokens, OutputTokens         uint64
	UsageReported                     bool
	Turns                             uint32
	// Duration is the step's, at its end.
	Duration time.Duration
	// ExitCode and Signal are a native tool's; Cancelled marks a call a
	// cancellation cut short.
	ExitCode  *int32
	Signal    string
	Cancelled bool
}

// Observer watches a run. Observe is called one event at a time, in
// order (on the loop's goroutine, or an async hook's when the session
// shares a Serial observer with its hooks), and must not block it: an
// observer that does slow work (network, a slow terminal) queues it.
type Observer interface {
	Observe(Event)
}

// Func is an Observer that is a function.
type Func func(Event)

// Observe calls f.
func (f Func) Observe(e Event) { f(e) }

// Tee is an Observer that hands every event to each of obs, nils left
// out; nil when none is left.
func Tee(obs ...Observer) Observer {
	var t tee
	for _, o := range obs {
		if o != nil {
			t = append(t, o)
		}
	}
	switch len(t) {
	case 0:
		return nil
	case 1:
		return t[0]
	}
	return t
}

type tee []Observer

func (t tee) Observe(e Event) {
	for _, o := range t {
		o.Observe(e)
	}
}
