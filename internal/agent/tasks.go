package agent

import (
	"context"

	"github.com/mur-go/mur/internal/tools"
)

// Task is one unit of work the session loop runs (session.md §3.8). The
// loop reads its text from the accessible task.md (else input.txt), which
// the source writes before handing the task over.
type Task struct {
	// ID and ContextID are tsk_/ctx_ ids; both are empty for the attempt
	// run after an A2A wait timed out, which writes no task records.
	ID, ContextID string
	// Source is task_md or a2a.
	Source string
	// InputBytes is the task.md size or the A2A message text length.
	InputBytes uint64
	// MessageID and Traceparent come from an A2A message (a2a_task_received).
	MessageID, Traceparent string
	// Events receive the task's progress; nil means NoEvents.
	Events Events
	// IO is what the driver and tools reach of the task (chunks,
	// request-input); nil outside A2A.
	IO tools.TaskIO
}

// TaskResult is how a task ended, for its source.
type TaskResult struct {
	// ExitStatus is task_end's: ok, failed, reopen_budget_exhausted or
	// ExitCancelled.
	ExitStatus string
	// Text is the final out/result.txt text (failures as "error: …").
	Text string
	// Err is the task's error, if it failed with one.
	Err error
}

// TaskSource hands the session loop its tasks: task.md for the CLI, A2A
// messages for a served capsule (lifecycle.task_acceptance).
type TaskSource interface {
	// Next blocks until the next task. ok is false when the session should
	// end; a ctx error ends it as cancelled.
	Next(ctx context.Context) (t Task, ok bool, err error)
	// Done reports a task's result before the loop asks for the next one.
	Done(ctx context.Context, t Task, r TaskResult)
}
