package agent

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
)

// Task exit statuses (task_end.exit_status).
const (
	exitOK        = "ok"
	exitFailed    = "failed"
	exitExhausted = "reopen_budget_exhausted"
)

// ExitCancelled is the exit status (task_end's, session_end's and a
// TaskResult's, beyond Murmur 0.2.0) of a task or attempt a cancellation
// interrupted, and of a run stopped from outside: stopping is not failing.
const ExitCancelled = "cancelled"

// taskRun is one task across its attempts.
type taskRun struct {
	// t is the task with its IO, and events its Events, as the task's
	// guests reach them: through out, which redacts the session's
	// secrets.
	t       Task
	events  Events
	out     redactedTask
	started uint64 // run ms at task_start
	start   time.Time
	// turn is the turn under way, for the streamed pieces' events, which
	// an agent CLI's stream may send from its own goroutine.
	turn   atomic.Uint32
	counts counts
	// reopens are the granted reopen requests, in order; original is
	// task.md as it was before the first rewrite.
	reopens  []Reopen
	original *string
}

// runTask is task_start, the attempts with their reopens, task_end
// (session.md §3.1, §3.5). An untracked task (no ID: the attempt after
// an A2A wait timed out) writes no task records and is never reopened.
func (l *loop) runTask(ctx context.Context, t Task) (res TaskResult) {
	events := t.Events
	if events == nil {
		events = NoEvents{}
	}
	tr := &taskRun{t: t, started: l.sinceOpen(), start: l.now()}
	l.taskCancelEnd = false
	tr.out = newRedactedTask(l.s.Secrets(), events, t.IO)
	if l.obs.obs != nil {
		tr.out.onChunk = func(text string, thinking bool) {
			l.emitTask(tr, observe.Event{Kind: observe.ModelText, Turn: tr.turn.Load(), Text: text, Thinking: thinking})
		}
	}
	l.emitTask(tr, observe.Event{Kind: observe.TaskStart, Source: t.Source, Traceparent: t.Traceparent})
	defer func() {
		c := tr.counts
		l.emitTask(tr, observe.Event{Kind: observe.TaskEnd, Status: res.ExitStatus, Output: res.Text,
			Turns: c.turns, InputTokens: c.in, OutputTokens: c.out, Duration: l.now().Sub(tr.start)})
	}()
	tr.events, tr.t.IO = &tr.out, tr.out.taskIO()
	// What a guest streamed last goes out before the source hears the
	// task ended.
	defer tr.out.flush(ctx)
	tracked := t.ID != ""
	if tracked {
		if t.Source == "a2a" {
			var tp *string
			if t.Traceparent != "" {
				tp = &t.Traceparent
			}
			l.writeLogged(trace.TypeA2ATaskReceived, &trace.A2ATaskReceived{TaskID: t.ID, ContextID: t.ContextID, MessageID: t.MessageID, TraceparentFromCaller: tp})
		}
		l.writeLogged(trace.TypeTaskStart, &trace.TaskStart{TaskID: t.ID, ContextID: t.ContextID, Source: t.Source, MessagePartsBytes: t.InputBytes})
		l.hooks.TaskStart(ctx, TaskStartEvent{TaskID: t.ID, ContextID: t.ContextID, Source: t.Source, InputBytes: t.InputBytes})
	}
	for {
		end, err := l.attemptFn(ctx, tr)
		status := exitOK
		if err != nil {
			status = exitFailed
			if KindOf(err) == KindCancelled {
				status = ExitCancelled
				l.endOpenAttempt()
			}
			e := asFailure(err)
			// Murmur leaves out/result.txt alone here; mur-go records the
			// reason, so a failed run never leaves a stale success behind.
			if werr := l.f.writeResult("error: " + message(e)); werr != nil {
				l.log.Warn("recording the failure in out/result.txt", "err", werr)
			}
			end = attemptEnd{text: "error: " + message(e), fail: e}
		}
		if !tracked {
			return end.result(status)
		}
		reopen := l.hooks.TaskEnd(ctx, TaskEndEvent{TaskID: t.ID, ExitStatus: status})
		if reopen == nil || ctx.Err() != nil {
			l.writeTaskEnd(tr, status)
			return end.result(status)
		}
		inf := l.s.Capsule.Inference
		if uint32(len(tr.reopens)) >= inf.MaxTaskReopens || tr.counts.turns >= inf.MaxTurns {
			l.writeTaskEnd(tr, exitExhausted)
			e := &diag.Error{Code: CodeTask, Err: KindReopen, Msg: fmt.Sprintf(
				"hook '%s' asked to reopen the task, but its reopen budget is spent (%d of inference.max_task_reopens %d used, %d of %d turns)",
				reopen.Hook, len(tr.reopens), inf.MaxTaskReopens, tr.counts.turns, inf.MaxTurns)}
			return TaskResult{ExitStatus: exitExhausted, Text: end.text, Err: e}
		}
		tr.reopens = append(tr.reopens, *reopen)
		l.writeLogged(trace.TypeTaskReopened, &trace.TaskReopened{TaskID: t.ID, HookName: reopen.Hook,
			Reason: reopen.Reason, ReopenNumber: uint32(len(tr.reopens))})
		if err := l.rewriteTask(tr); err != nil {
			l.log.Warn("rewriting task.md with the reopen feedback", "err", err)
		}
	}
}

// endOpenAttempt closes an attempt a cancellation interrupted after its
// session_start with a session_end cancelled, so every attempt in the
// trace is whole (Murmur writes none for an attempt that returned Err).
func (l *loop) endOpenAttempt() {
	if !l.open {
		return
	}
	if err := l.writeSessionEnd(ExitCancelled); err != nil {
		l.log.Warn("writing the interrupted attempt's session_end", "err", err)
	}
}

func (l *loop) writeTaskEnd(tr *taskRun, status string) {
	c := tr.counts
	l.writeLogged(trace.TypeTaskEnd, &trace.TaskEnd{TaskID: tr.t.ID, ExitStatus: status, DurationMS: l.sinceOpen() - tr.started,
		Turns: c.turns, InputTokens: c.in, OutputTokens: c.out, ToolCalls: c.toolCalls, ShellCalls: c.shellCalls,
		ReopenCount: uint32(len(tr.reopens))})
}

// writeLogged writes a record whose failure does not fail the attempt.
func (l *loop) writeLogged(typ string, rec trace.Record) {
	if err := l.tr.Write(typ, rec); err != nil {
		l.log.Warn("writing a trace record", "type", typ, "err", err)
	}
}

// reopenInstruction heads the feedback a reopened task carries.
const reopenInstruction = "A lifecycle hook reopened this task; address the feedback below, then finish the task."

// rewriteTask is task.md as the next attempt reads it: the original text,
// then every reopen so far with its hook and reason (session.md §3.5).
func (l *loop) rewriteTask(tr *taskRun) error {
	if tr.original == nil {
		text, err := l.f.readTask()
		if err != nil {
			return err
		}
		tr.original = &text
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(*tr.original, " \t\r\n"))
	b.WriteString("\n\n---\n\n# Reopen feedback\n\n" + reopenInstruction + "\n")
	for i, r := range tr.reopens {
		fmt.Fprintf(&b, "\n## Reopen %d — from hook `%s`\n\n%s\n", i+1, r.Hook, strings.TrimSpace(r.Reason))
	}
	return l.f.writeTask(b.String())
}
