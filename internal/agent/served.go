package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/serve/mcp"
)

// ServeTools runs a session whose tool calls come from outside the
// capsule (`mur mcp serve`): Run's session with one attempt in which
// serve offers the capsule's tools and hands each call to Served.Call,
// until serve returns. No model is called; the trace is session_start
// (max_turns 0: no model turn), the calls' records as the loop writes
// them, and session_end, ok when serve returned nil, cancelled when ctx
// ended. o is Run's, without Tasks (there is no task) and, for a script
// capsule, with no inference block (it has no model to record).
func ServeTools(ctx context.Context, o Options, serve func(context.Context, *Served) error) error {
	if serve == nil || o.Staged.Capsule == nil || o.Tasks != nil {
		return failure(KindIO, nil, "agent.ServeTools needs a staged capsule and a serve function, and takes no task source")
	}
	if o.Staged.Capsule.Inference == nil {
		c := *o.Staged.Capsule
		c.Inference = &manifest.Inference{}
		o.Staged.Capsule = &c
	}
	o.Tasks, o.serve = &servedTask{}, serve
	_, err := Run(ctx, o)
	return err
}

// servedTask hands out the served session's one task: untracked (no
// task records, never reopened), and with no text, which only the model
// would read.
type servedTask struct{ given bool }

func (s *servedTask) Next(context.Context) (Task, bool, error) {
	if s.given {
		return Task{}, false, nil
	}
	s.given = true
	return Task{Source: "mcp"}, true, nil
}

func (*servedTask) Done(context.Context, Task, TaskResult) {}

// servedAttempt is the served session's attempt: session_start, the
// server until it returns, session_end. A call that ends the session
// (Served.Call) stops the server and fails the attempt, as it fails a
// turn.
func (l *loop) servedAttempt(ctx context.Context, tr *taskRun) (attemptEnd, error) {
	l.attempted = true
	specs, err := toolSpecs(l.inv)
	if err != nil {
		return attemptEnd{}, failure(KindIO, err, "building the served tool list: %v", err)
	}
	for i := range specs {
		specs[i].Skill = l.d.resolve(specs[i].Name).skill
	}
	if err := l.f.appendBootstrap(l.invLog); err != nil {
		l.log.Warn("writing the tool inventory to logs/bootstrap.log", "err", err)
	}
	if err := l.tr.Write(trace.TypeSessionStart, l.sessionStart(0)); err != nil {
		return attemptEnd{}, traceFailed(err)
	}
	l.open = true
	sctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	s := &Served{l: l, a: &attemptRun{taskRun: tr}, tools: specs, stop: stop}
	err = l.o.serve(sctx, s)
	if fatal := s.close(); fatal != nil {
		return attemptEnd{}, fatal
	}
	if cerr := cancelled(ctx); cerr != nil {
		return attemptEnd{}, cerr
	}
	if err != nil {
		return attemptEnd{}, asFailure(err)
	}
	if err := l.writeSessionEnd(endOK); err != nil {
		return attemptEnd{}, traceFailed(err)
	}
	return attemptEnd{}, nil
}

// Served is a session's tools as a server offers them (ServeTools).
type Served struct {
	l     *loop
	a     *attemptRun
	tools []mcp.Tool
	stop  context.CancelCauseFunc
	// mu orders the calls, which touch the loop's state, and close.
	mu     sync.Mutex
	closed bool
	// fatal is the failure that ended the session, if a call met one.
	fatal error
}

// errServedClosed answers a call that arrives once the session ended.
const errServedClosed = "the session serving this tool has ended"

// Tools are the inventory the capsule's model would be shown, in its
// order, each skill marked as one.
func (s *Served) Tools() []mcp.Tool { return s.tools }

// Call is one call through the loop's dispatch (session.md §2.4): the
// same resolution (native, shell.allow, skill, allowlisted WASM), grants
// and containment, redaction, on-tool-call and on-shell hooks, trace
// records and observed events as a call of the capsule's model, at turn
// 0 (no model turn). Calls are taken one at a time. A call whose own
// context ends is recorded cancelled and the session goes on; one that
// meets what ends the loop's session (the workdir ceiling, a sealed root
// that could not be built, a trace write) ends this one: it is answered
// with the failure and the server is stopped.
func (s *Served) Call(ctx context.Context, name, input string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.fatal != nil {
		return errServedClosed, true
	}
	if err := s.l.workdirBreach(); err != nil {
		return s.end(err)
	}
	o, err := s.l.dispatchCall(ctx, s.a, 0, toolCall{Name: name, Input: input})
	switch {
	case err == nil:
		return o.text, o.isError
	case KindOf(err) == KindCancelled:
		return fmt.Sprintf("tool '%s' was cancelled: %s", name, message(err)), true
	}
	return s.end(err)
}

// end records what ended the session, stops the server and answers the
// call with it.
func (s *Served) end(err error) (string, bool) {
	s.fatal = err
	s.stop(err)
	return "error: " + message(err), true
}

// close refuses later calls, waits for the one in flight (its context
// ended with the server) and returns what ended the session, if a call
// did.
func (s *Served) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return s.fatal
}
