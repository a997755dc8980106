package hooks

import (
	"context"
	"time"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/agent"
)

// outcome is what the blocking hooks of one event committed (wit.md §6.4
// combination rules): every artifact in order, the first replace-context,
// the first reopen-task, the first error.
type outcome struct {
	artifacts []agent.HookArtifact
	replace   *agent.Replacement
	reopen    *agent.Reopen
	err       error
}

// eventArgs builds an event's record for a contract version.
type eventArgs func(Version) []any

// dispatch calls every blocking hook bound to fn inline, in staged order,
// then queues the event on every matching async hook. A hook's failure is
// logged to its own log and dispatch goes on with the next hook.
func (r *Runtime) dispatch(ctx context.Context, fn string, args eventArgs) outcome {
	var out outcome
	for _, in := range r.blocking {
		if !in.spec.matches(fn) {
			continue
		}
		v, absent, err := r.call(ctx, in, fn, args(in.contract.version))
		if absent {
			continue
		}
		if err != nil {
			r.logHook(in.spec.name, err.Error())
			if out.err == nil {
				out.err = &eventError{hook: in.spec.name, err: err}
			}
			continue
		}
		r.commit(&out, in.spec.name, fn, v)
	}
	for _, w := range r.async {
		if w.in.spec.matches(fn) {
			w.enqueue(ctx, job{fn: fn, args: args(w.in.contract.version)})
		}
	}
	return out
}

// commit keeps the arm event fn honours; any other arm but none is a
// fault: logged, and recorded for the trace (wit.md §6.3).
func (r *Runtime) commit(out *outcome, hook, fn string, v wit.VariantValue) {
	if !honours(fn, v.Case) {
		r.logHook(hook, unsupportedArm(hook, armName(v.Case), fn))
		r.fault(hook, fn, armName(v.Case))
		return
	}
	switch v.Case {
	case armArtifact:
		s, _ := v.Value.(string)
		out.artifacts = append(out.artifacts, agent.HookArtifact{Hook: hook, Content: s})
	case armReplaceContext:
		if out.replace == nil {
			out.replace = &agent.Replacement{Hook: hook, Messages: messagesFrom(v.Value)}
		}
	case armReopenTask:
		if out.reopen == nil {
			s, _ := v.Value.(string)
			out.reopen = &agent.Reopen{Hook: hook, Reason: s}
		}
	}
}

// eventError is the first blocking hook error of an event, "<hook>: <err>".
type eventError struct {
	hook string
	err  error
}

func (e *eventError) Error() string { return e.hook + ": " + e.err.Error() }
func (e *eventError) Unwrap() error { return e.err }

// SessionStart implements agent.Hooks: checkpoints are verified (and
// quarantined) before any hook sees the session.
func (r *Runtime) SessionStart(ctx context.Context, e agent.SessionContext) error {
	r.verifyCheckpoints()
	r.dispatch(ctx, fnSessionStart, func(Version) []any { return sessionContextValue(e) })
	return nil
}

// TaskStart implements agent.Hooks.
func (r *Runtime) TaskStart(ctx context.Context, e agent.TaskStartEvent) {
	r.dispatch(ctx, fnTaskStart, func(Version) []any { return taskStartValue(e) })
}

// Inference implements agent.Hooks; it also counts the turn and tokens
// for the session-end totals.
func (r *Runtime) Inference(ctx context.Context, e agent.InferenceEvent) []agent.HookArtifact {
	r.mu.Lock()
	r.totals.TotalTurns++
	r.totals.TotalInputTokens += e.InputTokens
	r.totals.TotalOutputTokens += e.OutputTokens
	r.mu.Unlock()
	return r.dispatch(ctx, fnInference, func(Version) []any { return inferenceValue(e) }).artifacts
}

// ToolCall implements agent.Hooks.
func (r *Runtime) ToolCall(ctx context.Context, e agent.ToolEvent) {
	r.mu.Lock()
	r.totals.TotalToolCalls++
	r.mu.Unlock()
	r.dispatch(ctx, fnToolCall, func(Version) []any { return toolValue(e) })
}

// Shell implements agent.Hooks.
func (r *Runtime) Shell(ctx context.Context, e agent.ShellEvent) {
	r.mu.Lock()
	r.totals.TotalShellCalls++
	r.mu.Unlock()
	r.dispatch(ctx, fnShell, func(v Version) []any { return shellValue(v, e) })
}

// Compaction implements agent.Hooks: a blocking hook's error beats any
// replacement; a committed replacement re-signs the checkpoints.
func (r *Runtime) Compaction(ctx context.Context, e agent.CompactionEvent) (*agent.Replacement, error) {
	out := r.dispatch(ctx, fnCompaction, func(v Version) []any { return compactionValue(v, e) })
	if out.err != nil {
		return nil, out.err
	}
	if out.replace != nil {
		r.signCheckpoints()
	}
	return out.replace, nil
}

// TaskEnd implements agent.Hooks.
func (r *Runtime) TaskEnd(ctx context.Context, e agent.TaskEndEvent) *agent.Reopen {
	return r.dispatch(ctx, fnTaskEnd, func(Version) []any { return taskEndValue(e) }).reopen
}

// SessionEnd implements agent.Hooks. The totals are the hook runtime's
// own run aggregates and its age (wit.md §6.4); checkpoints are signed
// after the hooks ran.
func (r *Runtime) SessionEnd(ctx context.Context, e agent.SessionEndEvent) {
	r.mu.Lock()
	t := r.totals
	r.mu.Unlock()
	t.DurationMS = uint64(time.Since(r.started).Milliseconds())
	t.ExitStatus = e.ExitStatus
	r.dispatch(ctx, fnSessionEnd, func(Version) []any { return sessionEndValue(t) })
	r.signCheckpoints()
}

// Close implements agent.Hooks: async queues are closed and drained under
// one shared budget, then every instance is released.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.drain(ctx)
	for _, in := range r.blocking {
		in.close(ctx)
	}
	return nil
}
