package agent

import (
	"context"
	"time"
)

// Hooks are the loop's hook points (wit.md §6.4), in dispatch order. The
// hooks runtime implements them; NoHooks is the capsule without hooks.
// Faults inside a hook (its err, a trap, a deadline) are the
// implementation's to log and record; only the errors returned here reach
// the loop, and only where the spec makes them fatal.
type Hooks interface {
	// SessionStart runs once per run before the first task. An error
	// (a hook that cannot be instantiated) ends the session.
	SessionStart(ctx context.Context, e SessionContext) error
	// TaskStart runs once per task, after its task_start record.
	TaskStart(ctx context.Context, e TaskStartEvent)
	// Inference runs after each parsed driver response, before the turn's
	// inference record; it returns the artifact outputs of blocking hooks.
	Inference(ctx context.Context, e InferenceEvent) []HookArtifact
	// ToolCall runs after each model-requested tool returns or fails;
	// Shell after it, for shell tools that produced a result.
	ToolCall(ctx context.Context, e ToolEvent)
	Shell(ctx context.Context, e ShellEvent)
	// Compaction runs when the context window crosses the threshold. A
	// nil replacement means no hook returned replace-context; an error is
	// fatal to the attempt ("<hook>: <err>").
	Compaction(ctx context.Context, e CompactionEvent) (*Replacement, error)
	// TaskEnd runs after each attempt of a task; a non-nil result is the
	// first blocking hook's reopen-task request.
	TaskEnd(ctx context.Context, e TaskEndEvent) *Reopen
	// SessionEnd runs once after the task loop.
	SessionEnd(ctx context.Context, e SessionEndEvent)
	// TakeInferences returns, and forgets, the inference records of hook
	// run-inference calls made since the last call, for the trace.
	TakeInferences() []HookInference
	// TakeFaults returns, and forgets, the dispatch faults to record as
	// hook_dispatch_error lines (flushed before every session_end).
	TakeFaults() []HookFault
	// Close drains async hooks within their budget and releases every
	// instance.
	Close(ctx context.Context) error
}

// HookMessage is a conversation message as hooks see it: content is the
// JSON text of the block array, or for a tool message the marker object
// of wit.md §6.6.
type HookMessage struct {
	Role, Content string
}

// SessionContext is murmur:hook's session-context.
type SessionContext struct {
	CapsuleName, CapsuleVersion, SessionID, Model string
	Capabilities                                  []string
}

// TaskStartEvent is task-start-event; Source is task_md or a2a.
type TaskStartEvent struct {
	TaskID, ContextID, Source string
	InputBytes                uint64
}

// TaskEndEvent is task-end-event; ExitStatus is ok or failed, or
// cancelled (beyond Murmur 0.2.0) for a task a cancellation interrupted.
type TaskEndEvent struct {
	TaskID, ExitStatus string
}

// InferenceEvent is inference-event.
type InferenceEvent struct {
	Turn                      uint32
	InputTokens, OutputTokens uint64
	Decision                  string
	ToolName                  *string
	Prompt, Output, Tools     *string
}

// ToolEvent is tool-event; Status is ok or error.
type ToolEvent struct {
	Turn                                uint32
	ToolName                            string
	InputBytes, OutputBytes, DurationMS uint64
	Status                              string
}

// ShellEvent is shell-event: Command cut to 200 characters, the streams
// already truncated to 16 KiB and the byte counts their lengths.
type ShellEvent struct {
	Turn                                 uint32
	Binary, Command                      string
	ExitCode                             int32
	Stdout, Stderr                       string
	StdoutBytes, StderrBytes, DurationMS uint64
}

// CompactionEvent is compaction-event; Threshold is the observed ratio.
type CompactionEvent struct {
	Messages            []HookMessage
	SessionTokens       uint64
	Threshold           float64
	Model, SystemPrompt *string
}

// SessionEndEvent is session-end-event; ExitStatus is the last
// attempt's, or cancelled for a run stopped from outside.
type SessionEndEvent struct {
	TotalTurns                          uint32
	TotalInputTokens, TotalOutputTokens uint64
	TotalToolCalls, TotalShellCalls     uint32
	DurationMS                          uint64
	ExitStatus                          string
}

// Replacement is the first replace-context output: the hook's name and
// its messages, still to be reconstructed and checked by the loop.
type Replacement struct {
	Hook     string
	Messages []HookMessage
}

// Reopen is the first reopen-task output at on-task-end.
type Reopen struct {
	Hook, Reason string
}

// HookArtifact is an artifact output of on-inference.
type HookArtifact struct {
	Hook, Content string
}

// HookInference is the trace record of one hook run-inference call
// (an inference line with origin hook:<Hook>).
type HookInference struct {
	Hook, Model               string
	InputTokens, OutputTokens uint64
	Decision                  string
	// Retry (beyond Murmur 0.2.0) is set on a failed call that was sent
	// again: the loop writes it as an inference_retry record.
	Retry *HookRetry
}

// HookRetry is the retry of a failed hook run-inference call (the
// fields of session.md §13's retry record).
type HookRetry struct {
	Attempt, MaxRetries uint32
	Reason              string
	ProviderStatus      int
	Error               string
	Delay, RetryAfter   time.Duration
	ChargedTokens       uint64
}

// HookFault is one hook_dispatch_error record.
type HookFault struct {
	Hook, Event, Arm string
}

// NoHooks is a capsule without hooks: every point does nothing.
type NoHooks struct{}

func (NoHooks) SessionStart(context.Context, SessionContext) error { return nil }
func (NoHooks) TaskStart(context.Context, TaskStartEvent)          {}
func (NoHooks) Inference(context.Context, InferenceEvent) []HookArtifact {
	return nil
}
func (NoHooks) ToolCall(context.Context, ToolEvent) {}
func (NoHooks) Shell(context.Context, ShellEvent)   {}
func (NoHooks) Compaction(context.Context, CompactionEvent) (*Replacement, error) {
	return nil, nil
}
func (NoHooks) TaskEnd(context.Context, TaskEndEvent) *Reopen { return nil }
func (NoHooks) SessionEnd(context.Context, SessionEndEvent)   {}
func (NoHooks) TakeInferences() []HookInference               { return nil }
func (NoHooks) TakeFaults() []HookFault                       { return nil }
func (NoHooks) Close(context.Context) error                   { return nil }
