package agent

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/tokens"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// Options describe one run of an agent capsule's loop.
type Options struct {
	// Staged is the staged agent capsule as the loop sees it.
	Staged stage.LoopView
	// Driver is the inference driver; Tools the staged tools by name and
	// Allowlist the manifest's tool artifacts (see launch.NewAgentTools).
	Driver tools.Tool
	// Process starts the agent CLI that replaces the driver under
	// inference.transport: process (see launch.NewProcessTools); it is
	// required there and unused otherwise.
	Process   *ProcessOptions
	Tools     tools.Tools
	Allowlist []string
	// Shell runs capabilities.shell.allow commands; nil answers each
	// call with an error result saying shell tools are not available.
	Shell tools.ShellRunner
	// MCP are the capsule's MCP servers' tools (mcp__<server>__<tool>),
	// started; nil when the capsule declares none.
	MCP tools.Catalog
	// Hooks are the hook points; nil is NoHooks.
	Hooks Hooks
	// Tasks hands out the tasks; nil is NewCLITasks of the accessible workdir.
	Tasks TaskSource
	// SystemPrompt is `mur run --system-prompt` (nil: not given). It wins
	// over the manifest's three prompt fields; the caller clears those
	// before staging so MURMUR.md and the inventory agree.
	SystemPrompt *string
	// Tokens counts tokens; nil loads cl100k_base.
	Tokens *tokens.Counter
	// Log receives the loop's diagnostics; nil discards them.
	Log *slog.Logger
	// Now is the clock of trace timestamps and durations; nil is time.Now.
	Now func() time.Time
	// Retry is the driver calls' retry policy; nil is the capsule's
	// inference.retry (inference.NewPolicy). Tests set its Clock and
	// Jitter.
	Retry *inference.Policy
	// Meter is the spend ceiling's meter, shared with the hooks'
	// run-inference; nil is a meter of the capsule's
	// inference.max_session_tokens.
	Meter *inference.Meter
	// WorkdirBreach is the workdir guard's latched breach (nil before
	// one), checked at the start of every turn; nil has no guard.
	WorkdirBreach func() error
	// Observer watches each step as it happens (package observe); nil
	// has none.
	Observer observe.Observer

	// serve, set by ServeTools, offers the tools to callers outside the
	// capsule in place of the model.
	serve func(context.Context, *Served) error
}

// Result is how a run ended.
type Result struct {
	// Tasks is the number of tasks run; Last the last one's result.
	Tasks int
	Last  TaskResult
}

// loop is one Run: what lives from trace open to close.
type loop struct {
	o      Options
	s      stage.LoopView
	tr     *trace.Writer
	obs    observer
	f      *files
	hooks  Hooks
	tok    *tokens.Counter
	log    *slog.Logger
	now    func() time.Time
	opened time.Time
	// lastEnd is the exit status of the last session_end written ("" for
	// none), what on-session-end reports.
	lastEnd string
	// ended is set by the first session_end written; attempted by the
	// first attempt. Only a run that made an attempt and wrote no
	// session_end gets the fallback one. open is set while an attempt's
	// session_start has no session_end yet.
	ended, attempted, open bool
	// taskCancelEnd is set when the current task wrote a session_end
	// cancelled; stopRecorded when the task the run's own cancellation
	// interrupted did, so the run's end need not record the stop again.
	taskCancelEnd, stopRecorded bool
	totals                      counts
	prompt                      prompt
	inv                         []any
	invJSON                     string
	invLog                      []byte
	// bound is the skill bound as the system prompt, which the tool list
	// leaves out; listed the version of MCP's list the tool list holds
	// (refreshTools), hasListed whether it holds one yet.
	bound     string
	listed    uint64
	hasListed bool
	// reqHead and reqTail are the request JSON around the messages,
	// the same every turn (see payloads).
	reqHead, reqTail string
	cont             continuation
	d                *dispatcher
	policy           inference.Policy
	meter            *inference.Meter
	// attemptFn runs one attempt: the driver's turn loop, or the agent
	// CLI under transport: process.
	attemptFn func(context.Context, *taskRun) (attemptEnd, error)
}

// counts are trace totals: per run (session_end) and per task.
type counts struct {
	turns, toolCalls, shellCalls uint32
	in, out                      uint64
}

// Run runs every task the source hands out (session.md §3.1):
// trace.jsonl opened, on-session-start, the task loop, on-session-end,
// the hooks drained and closed, their faults recorded, the fallback
// session_end, the trace closed. The error is the last failed task's
// (coded, marked with its Kind), or what stopped the session from
// starting.
func Run(ctx context.Context, o Options) (Result, error) {
	l, err := newLoop(o)
	if err != nil {
		return Result{}, err
	}
	if l.tr, err = trace.Open(l.s.SessionDir, l.s.ID, l.now, l.s.Secrets()); err != nil {
		return Result{}, failure(KindIO, err, "%v", err)
	}
	if l.f, err = openFiles(l.s.Workdir); err != nil {
		l.tr.Close()
		return Result{}, failure(KindIO, err, "%v", err)
	}
	l.opened = l.now()
	res, runErr := l.run(ctx)
	cleanup := context.WithoutCancel(ctx)
	status := l.lastEnd
	if status == "" && l.attempted {
		status = endFailed
	}
	// A run stopped from outside (mur stop, a signal) ends cancelled,
	// whatever its last attempt did, and its trace says so once: the
	// interrupted task did, else a session_end cancelled at the end
	// (even for a run that was waiting for its first task).
	stopped := ctx.Err() != nil
	if stopped {
		status = ExitCancelled
	}
	l.hooks.SessionEnd(cleanup, l.sessionEndEvent(cmp.Or(status, endOK)))
	if err := l.hooks.Close(cleanup); err != nil {
		l.log.Warn("closing the hooks", "err", err)
	}
	l.flushFaults()
	switch {
	case stopped && !l.stopRecorded:
		if err := l.writeSessionEnd(ExitCancelled); err != nil {
			l.log.Warn("recording the stopped run's session_end", "err", err)
		}
	case l.attempted && !l.ended:
		if err := l.writeSessionEnd("failed"); err != nil {
			l.log.Warn("writing the fallback session_end", "err", err)
		}
	}
	if err := l.f.close(); err != nil {
		l.log.Warn("closing the session files", "err", err)
	}
	if err := l.tr.Close(); err != nil && runErr == nil {
		runErr = failure(KindIO, err, "%v", err)
	}
	return res, runErr
}

func newLoop(o Options) (*loop, error) {
	l := &loop{o: o, s: o.Staged, hooks: o.Hooks, tok: o.Tokens, log: o.Log, now: o.Now, obs: observer{obs: o.Observer}}
	l.attemptFn = l.attempt
	switch {
	case o.serve != nil:
		l.attemptFn = l.servedAttempt
	case l.s.Capsule.Inference.Transport == transportProcess:
		if o.Process == nil {
			return nil, failure(KindIO, nil, "inference.transport: process needs Options.Process to start its agent CLI")
		}
		l.attemptFn = l.processAttempt
	}
	if l.now == nil {
		l.now = time.Now
	}
	if l.hooks == nil {
		l.hooks = NoHooks{}
	}
	if l.tok == nil {
		l.tok = tokens.New()
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	if l.o.Tasks == nil {
		l.o.Tasks = NewCLITasks(l.s.AccessibleDir, l.s.Capsule.Lifecycle.TaskAcceptance)
	}
	inf := l.s.Capsule.Inference
	l.policy, l.meter = inference.NewPolicy(inf.Retry), o.Meter
	if o.Retry != nil {
		l.policy = *o.Retry
	}
	if l.meter == nil {
		l.meter = inference.NewMeter(inf.MaxSessionTokens)
	}
	var err error
	if l.prompt, err = resolveSystem(l.s, o.SystemPrompt); err != nil {
		return nil, err
	}
	l.bound = l.s.Capsule.Inference.SystemPromptArtifact
	if o.SystemPrompt != nil {
		l.bound = ""
	}
	if l.inv, err = inventory(l.s, l.bound, nil); err != nil {
		return nil, failure(KindIO, err, "building the tool inventory: %v", err)
	}
	if l.invJSON, err = encode(l.inv); err != nil {
		return nil, failure(KindIO, err, "encoding the tool inventory: %v", err)
	}
	if l.invLog, err = inventoryLog(l.inv); err != nil {
		return nil, failure(KindIO, err, "encoding the tool inventory: %v", err)
	}
	l.d = &dispatcher{staged: l.s, tools: o.Tools, allowlist: o.Allowlist, shell: o.Shell, mcp: o.MCP}
	return l, nil
}

// run is on-session-start and the task loop.
func (l *loop) run(ctx context.Context) (Result, error) {
	var res Result
	if err := l.hooks.SessionStart(ctx, l.sessionContext()); err != nil {
		return res, failure(KindIO, err, "on-session-start: %v", err)
	}
	var last error
	for {
		t, ok, err := l.o.Tasks.Next(ctx)
		if err != nil {
			if cerr := cancelled(ctx); cerr != nil {
				return res, cerr
			}
			return res, err
		}
		if !ok {
			return res, last
		}
		// A2A CancelTask ends only its task's context; the session goes on.
		tctx, cancel := TaskContext(ctx, t)
		r := redactResult(l.s.Secrets(), l.runTask(tctx, t))
		cancel()
		res.Tasks++
		res.Last = r
		last = r.Err
		l.o.Tasks.Done(ctx, t, r)
		if ctx.Err() != nil {
			l.stopRecorded = l.taskCancelEnd
			return res, last
		}
	}
}

func (l *loop) sessionContext() SessionContext {
	c := l.s.Capsule
	return SessionContext{CapsuleName: c.Name, CapsuleVersion: c.Version, SessionID: l.s.ID,
		Model: c.Inference.Model, Capabilities: capabilityNames(c)}
}

func (l *loop) sessionEndEvent(status string) SessionEndEvent {
	t := l.totals
	return SessionEndEvent{TotalTurns: t.turns, TotalInputTokens: t.in, TotalOutputTokens: t.out,
		TotalToolCalls: t.toolCalls, TotalShellCalls: t.shellCalls, DurationMS: l.sinceOpen(), ExitStatus: status}
}

func (l *loop) sinceOpen() uint64 { return durMS(l.now().Sub(l.opened)) }

func durMS(d time.Duration) uint64 { return uint64(max(d, 0).Milliseconds()) }

// writeSessionEnd writes a session_end with the run's totals, after the
// hook faults gathered so far.
func (l *loop) writeSessionEnd(status string) error {
	l.flushFaults()
	t := l.totals
	l.ended, l.open, l.lastEnd = true, false, status
	l.taskCancelEnd = l.taskCancelEnd || status == ExitCancelled
	return l.tr.Write(trace.TypeSessionEnd, &trace.SessionEnd{TotalTurns: t.turns, TotalInputTokens: t.in,
		TotalOutputTokens: t.out, TotalToolCalls: t.toolCalls, TotalShellCalls: t.shellCalls,
		DurationMS: l.sinceOpen(), ExitStatus: status})
}

// flushFaults records the hook faults (their write errors are only
// logged, session.md §10).
func (l *loop) flushFaults() {
	for _, f := range l.hooks.TakeFaults() {
		if err := l.tr.Write(trace.TypeHookDispatchError, &trace.HookDispatchError{HookName: f.Hook, Event: f.Event, Arm: f.Arm}); err != nil {
			l.log.Warn("writing a hook_dispatch_error record", "err", err)
		}
	}
}

// bootstrapLog appends one line to logs/bootstrap.log (failures logged).
func (l *loop) bootstrapLog(line string) {
	if err := l.f.appendBootstrap([]byte(line + "\n")); err != nil {
		l.log.Warn("writing logs/bootstrap.log", "err", err)
	}
}

// cancelled is a KindCancelled error once ctx is done.
func cancelled(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return failure(KindCancelled, context.Cause(ctx), "session cancelled (%v)", context.Cause(ctx))
}
