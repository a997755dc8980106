package agent

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// Decisions of an inference record.
const (
	decisionToolCall = "tool_call"
	decisionEndTurn  = "end_turn"
	decisionText     = "text"
)

// Attempt exit statuses (session_end.exit_status).
const (
	endOK       = "ok"
	endFailed   = "failed"
	endMaxTurns = "max_turns_reached"
)

// attemptEnd is how an attempt that returned (Murmur's Ok) ended: the
// text written to out/result.txt and, for the failures Murmur records but
// counts as success, the failure.
type attemptEnd struct {
	text string
	fail error
}

func (a attemptEnd) result(status string) TaskResult {
	r := TaskResult{ExitStatus: status, Text: a.text}
	if a.fail != nil {
		r.Err = a.fail
	}
	return r
}

// attemptRun is one attempt's state.
type attemptRun struct {
	*taskRun
	msgs []any
	// enc are the JSON encodings of msgs[:len(enc)], kept while msgs only
	// grows (compaction replaces both).
	enc []string
	// artifacts are the on-inference hook artifacts, sent at completion.
	artifacts []HookArtifact
	watch     *chunkWatch
}

// beginAttempt is what every attempt starts with, whatever runs the
// model: the turns left to this task and the task text.
func (l *loop) beginAttempt(ctx context.Context, tr *taskRun) (remaining uint32, task string, err error) {
	l.attempted = true
	inf := l.s.Capsule.Inference
	remaining = inf.MaxTurns - min(tr.counts.turns, inf.MaxTurns)
	if err := cancelled(ctx); err != nil {
		return 0, "", err
	}
	task, err = l.f.readTask()
	if err != nil {
		return 0, "", &diag.Error{Code: CodeRun, Err: diag.Mark(err, KindTask), Msg: fmt.Sprintf("reading the task: %v", err)}
	}
	if strings.TrimSpace(task) == "" {
		return 0, "", noTask()
	}
	if err := l.refreshTools(ctx); err != nil {
		return 0, "", err
	}
	return remaining, task, nil
}

// workdirBreach is the workdir guard's latched breach as the failure
// that ends the session (E-RUN-013), nil before one or without a guard.
func (l *loop) workdirBreach() error {
	if b := l.o.WorkdirBreach; b != nil {
		if err := b(); err != nil {
			return &diag.Error{Code: CodeWorkdir, Err: diag.Mark(err, KindWorkdirCeiling), Msg: "session " + err.Error()}
		}
	}
	return nil
}

// noTask ends an attempt that has nothing to ask, where Murmur calls the
// model with an empty task: it answers something all the same, and
// spends tokens on it.
func noTask() error {
	return &diag.Error{Code: CodeRun, Err: KindTask,
		Msg:  "no task to run: task.md and input.txt in the workdir are missing or empty, so the model was not called",
		Hint: "give the capsule a task: mur run --task FILE|TEXT, or mur send URL TEXT while it waits for one"}
}

// attempt is run_agent_loop: session_start, the turns, session_end
// (session.md §3.1–§3.2). A returned error is Murmur's Err: the attempt
// failed without its session_end.
func (l *loop) attempt(ctx context.Context, tr *taskRun) (attemptEnd, error) {
	remaining, task, err := l.beginAttempt(ctx, tr)
	if err != nil {
		return attemptEnd{}, err
	}
	inf := l.s.Capsule.Inference
	a := &attemptRun{taskRun: tr}
	if io := tr.out.driverIO(); io != nil {
		a.watch = &chunkWatch{TaskIO: io}
	}
	if l.threaded() {
		a.msgs = l.loadHistory(tr.t.ContextID)
	}
	a.msgs = append(a.msgs, userMessage(task))
	if err := l.f.appendBootstrap(l.invLog); err != nil {
		l.log.Warn("writing the tool inventory to logs/bootstrap.log", "err", err)
	}
	if err := l.tr.Write(trace.TypeSessionStart, l.sessionStart(remaining)); err != nil {
		return attemptEnd{}, traceFailed(err)
	}
	l.open = true
	for turn := range remaining {
		end, done, err := l.turn(ctx, a, turn)
		if err != nil || done {
			return end, err
		}
	}
	return l.endFailed(a, failure(KindMaxTurns, nil, "inference loop exceeded %d turns", inf.MaxTurns), endMaxTurns)
}

// turn is one turn, steps 1–16 of session.md §3.2. done reports that the
// attempt ended (returned), err that it failed (Err).
func (l *loop) turn(ctx context.Context, a *attemptRun, turn uint32) (attemptEnd, bool, error) {
	// Step 1, the workdir-size watchdog.
	if err := l.workdirBreach(); err != nil {
		return attemptEnd{}, true, err
	}
	if err := cancelled(ctx); err != nil {
		return attemptEnd{}, true, err
	}
	// Steps 2–3.
	if err := l.refreshTools(ctx); err != nil {
		return attemptEnd{}, true, err
	}
	sendLen := len(a.msgs)
	full, wire, err := l.payloads(a)
	if err != nil {
		return attemptEnd{}, true, failure(KindIO, err, "encoding the driver request: %v", err)
	}
	inTok := l.tok.Count(full.json)
	sessionTokens := inTok
	// Step 4.
	a.events.Status(StatusEvent{State: "working", Message: fmt.Sprintf("inference turn %d", turn+1)})
	// Steps 5, 7 and 8, with retries and the spend ceiling.
	a.turn.Store(turn)
	model := l.s.Capsule.Inference.Model
	l.emitTask(a.taskRun, observe.Event{Kind: observe.ModelStart, Turn: turn, Name: model, Input: wire.messagesJSON, InputTokens: inTok})
	callStart := l.now()
	c, stop, err := l.callDriver(ctx, a, turn, wire, inTok)
	l.emitModelEnd(a, turn, model, l.now().Sub(callStart), c, stop, err)
	if err != nil || stop != nil {
		return deref(stop), true, err
	}
	// Step 6.
	contID := metadata(c.res.Metadata, "continuation_id")
	if a.watch != nil && a.watch.streamed() {
		a.events.Text("")
	}
	r, outTok := c.r, c.outTok
	sessionTokens += outTok
	// Step 9.
	decision := decisionText
	switch r.StopReason {
	case stopToolCall:
		decision = decisionToolCall
	case stopEndTurn:
		decision = decisionEndTurn
	}
	toolName := r.firstToolName()
	// Step 10.
	content, err := encode(r.Content)
	if err != nil {
		return attemptEnd{}, true, failure(KindResponse, err, "encoding the response content: %v", err)
	}
	wireMsgs := wire.messagesJSON
	a.artifacts = append(a.artifacts, l.hooks.Inference(ctx, InferenceEvent{Turn: turn, InputTokens: inTok, OutputTokens: outTok,
		Decision: decision, ToolName: toolName, Prompt: &wireMsgs, Output: &content, Tools: &l.invJSON})...)
	l.writeHookInferences(a, turn)
	if err := l.tr.Write(trace.TypeInference, &trace.Inference{Turn: turn, InputTokens: inTok, OutputTokens: outTok,
		Decision: decision, ToolName: toolName}); err != nil {
		return attemptEnd{}, true, traceFailed(err)
	}
	l.writeUsage(turn, c)
	l.count(a, counts{turns: 1, in: inTok, out: outTok})
	// Step 11.
	if r.StopReason == stopError {
		end, err := l.endFailed(a, failure(KindModelError, nil, "%s", cmp.Or(r.Error, "driver returned error")), endFailed)
		return end, true, err
	}
	// Step 12.
	l.cont.record(contID, a.t.ContextID, sendLen)
	// Step 13.
	if fail := l.compact(ctx, a, turn, sessionTokens); fail != nil {
		end, err := l.endFailed(a, fail, endFailed)
		return end, true, err
	}
	switch r.StopReason {
	case stopToolCall: // Step 14.
		calls, err := r.toolCalls()
		if err != nil {
			return attemptEnd{}, true, failure(KindResponse, err, "%v", err)
		}
		if len(calls) == 0 {
			end, err := l.endFailed(a, failure(KindResponse, nil, "response stop_reason=tool_call but no tool_call blocks were present"), endFailed)
			return end, true, err
		}
		results := make([]any, 0, len(calls))
		for _, c := range calls {
			msg, err := l.callTool(ctx, a, turn, c)
			if err != nil {
				return attemptEnd{}, true, err
			}
			results = append(results, msg)
		}
		a.msgs = append(append(a.msgs, assistantMessage(r.Content)), results...)
		return attemptEnd{}, false, nil
	case stopEndTurn, stopMaxTokens: // Step 15.
		end, err := l.endOK(a, r)
		return end, true, err
	}
	// Step 16.
	end, err := l.endFailed(a, failure(KindResponse, nil, "unsupported stop_reason '%s'", r.StopReason), endFailed)
	return end, true, err
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// count adds c to the task's and the run's totals.
func (l *loop) count(a *attemptRun, c counts) {
	for _, t := range []*counts{&a.counts, &l.totals} {
		t.turns += c.turns
		t.toolCalls += c.toolCalls
		t.shellCalls += c.shellCalls
		t.in += c.in
		t.out += c.out
	}
}

// writeHookInferences writes the hooks' run-inference records gathered
// since the last call; they count as turns (session.md §10). Their write
// errors are only logged.
func (l *loop) writeHookInferences(a *attemptRun, turn uint32) {
	for _, h := range l.hooks.TakeInferences() {
		origin, model := "hook:"+h.Hook, h.Model
		l.writeLogged(trace.TypeInference, &trace.Inference{Turn: turn, InputTokens: h.InputTokens, OutputTokens: h.OutputTokens,
			Decision: h.Decision, Origin: &origin, Model: &model})
		l.count(a, counts{turns: 1, in: h.InputTokens, out: h.OutputTokens})
		if r := h.Retry; r != nil {
			l.writeLogged(trace.TypeInferenceRetry, retryRecord(origin, turn, r))
		}
	}
}

// endFailed is a failure Murmur records and returns Ok from: the reason
// in out/result.txt, session_end with status, a final failed event.
func (l *loop) endFailed(a *attemptRun, e *diag.Error, status string) (attemptEnd, error) {
	text := "error: " + e.Msg
	if err := l.f.writeResult(text); err != nil {
		l.log.Warn("recording the failure in out/result.txt", "err", err)
	}
	if err := l.writeSessionEnd(status); err != nil {
		return attemptEnd{}, traceFailed(err)
	}
	a.events.Status(StatusEvent{State: "failed", Message: "session ended", Final: true})
	return attemptEnd{text: text, fail: e}, nil
}

// endOK is step 15: the final text recorded, the threaded history kept,
// session_end ok, the completion events.
func (l *loop) endOK(a *attemptRun, r response) (attemptEnd, error) {
	text := r.text()
	if err := l.f.writeResult(text); err != nil {
		return attemptEnd{}, failure(KindIO, err, "writing out/result.txt: %v", err)
	}
	if l.threaded() {
		l.saveHistory(a, r, text)
	}
	if err := l.writeSessionEnd(endOK); err != nil {
		return attemptEnd{}, traceFailed(err)
	}
	for _, art := range a.artifacts {
		a.events.Artifact(art.Hook, art.Content)
	}
	if (a.watch == nil || !a.watch.streamed()) && text != "" {
		a.events.Text(text)
	}
	a.events.Status(StatusEvent{State: "completed", Response: &text, Final: true})
	return attemptEnd{text: text}, nil
}

// metadata is the first value of key in list order; empty counts as
// absent (session.md §1.4).
func metadata(md []tools.Pair, key string) string {
	for _, p := range md {
		if p.Key == key {
			return p.Value
		}
	}
	return ""
}
