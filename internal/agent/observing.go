package agent

import (
	"sync"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
)

// observer hands the run's steps to Options.Observer: one at a time
// (a streaming driver's chunks arrive from its own calls), stamped, and
// without the session's secrets, since observers write files and send
// spans out of the host.
type observer struct {
	mu  sync.Mutex
	obs observe.Observer
}

// emit hands e to the observer, if any.
func (l *loop) emit(e observe.Event) {
	o := &l.obs
	if o.obs == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = l.now()
	}
	if s := l.s.Secrets(); s.Active() {
		e.Name, e.Input, e.Output, e.Err = s.String(e.Name), s.String(e.Input), s.String(e.Output), s.String(e.Err)
		// Text is a streamed piece, already cut by the task's stream
		// redactor, which sees across pieces.
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.obs.Observe(e)
}

// emitTask is emit for a step of tr's task.
func (l *loop) emitTask(tr *taskRun, e observe.Event) {
	e.TaskID, e.ContextID = tr.t.ID, tr.t.ContextID
	l.emit(e)
}

// toolKind is the kind of tool a handler runs, as observers name it.
func (l *loop) toolKind(name string, h handler) string {
	switch {
	case h.shell:
		return "shell"
	case h.skill:
		return "skill"
	case h.mcp:
		return "mcp"
	case h.errText != "":
		return "unknown"
	}
	for _, a := range l.s.Artifacts {
		if a.Name == name {
			return string(a.Kind)
		}
	}
	return "unknown"
}

// emitModelEnd reports how a driver call ended: its decision and tokens
// (the provider's when it reported them), or the failure that ended the
// attempt.
func (l *loop) emitModelEnd(a *attemptRun, turn uint32, model string, dur time.Duration, c driverCall, stop *attemptEnd, err error) {
	e := observe.Event{Kind: observe.ModelEnd, Turn: turn, Name: model, Duration: dur, Status: "ok"}
	switch {
	case err != nil:
		e.Status, e.Err = "error", err.Error()
	case stop != nil:
		e.Status = "error"
		if stop.fail != nil {
			e.Err = stop.fail.Error()
		}
	default:
		e.StopReason, e.Output = c.r.StopReason, c.raw
		switch c.r.StopReason {
		case stopToolCall:
			e.Decision = decisionToolCall
		case stopEndTurn:
			e.Decision = decisionEndTurn
		default:
			e.Decision = decisionText
		}
		e.OutputTokens = c.outTok
		if c.reported {
			e.UsageReported = true
			if u := c.usage.InputTokens; u != nil {
				e.InputTokens = *u
			}
			if u := c.usage.OutputTokens; u != nil {
				e.OutputTokens = *u
			}
		}
	}
	l.emitTask(a.taskRun, e)
}

// emitToolEnd reports how a tool call ended.
func (l *loop) emitToolEnd(tr *taskRun, turn uint32, name, kind string, dur time.Duration, o outcome, cancelled bool) {
	e := observe.Event{Kind: observe.ToolEnd, Turn: turn, Name: name, ToolKind: kind, Output: o.text,
		Status: "ok", Duration: dur, Cancelled: cancelled}
	if o.isError || cancelled {
		e.Status = "error"
	}
	if x := o.exit; x != nil {
		code := x.Code
		e.ExitCode, e.Signal = &code, x.Signal
	}
	l.emitTask(tr, e)
}
