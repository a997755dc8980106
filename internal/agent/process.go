package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/process"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/tools"
)

// transportProcess is inference.transport for an agent CLI (session.md §6).
const transportProcess = "process"

// processNotices are the two notices of the [Capsule] block, the only part
// of it the CLI is given (session.md §6).
const processNotices = murmurMDNotice + "\n" + untrustedNotice

// ProcessOptions are how a transport: process capsule's agent CLI starts
// (see launch.NewProcessTools).
type ProcessOptions struct {
	// Env and Sandbox start the CLI as a native tool starts.
	Env     tools.SubprocessEnv
	Sandbox *sandbox.Trampoline
	// Timeout bounds one attempt's CLI; 0 means process.DefaultTimeout.
	Timeout time.Duration
}

// processAttempt is an attempt of a transport: process capsule:
// session_start, then the CLI in place of the turn loop. Its stream's
// inference and tool_call lines and its session_end go through the
// run's trace and totals; its bridge calls through the loop's
// dispatcher. Every failure is Murmur's Err (session_end failed is already
// written), never max_turns_reached.
func (l *loop) processAttempt(ctx context.Context, tr *taskRun) (attemptEnd, error) {
	remaining, task, err := l.beginAttempt(ctx, tr)
	if err != nil {
		return attemptEnd{}, err
	}
	inf := l.s.Capsule.Inference
	specs, err := toolSpecs(l.inv)
	if err != nil {
		return attemptEnd{}, failure(KindIO, err, "building the bridge's tool list: %v", err)
	}
	if err := l.f.appendBootstrap(l.invLog); err != nil {
		l.log.Warn("writing the tool inventory to logs/bootstrap.log", "err", err)
	}
	if err := l.tr.Write(trace.TypeSessionStart, l.sessionStart(remaining)); err != nil {
		return attemptEnd{}, traceFailed(err)
	}
	l.open = true
	p := &processRun{l: l, a: &attemptRun{taskRun: tr}}
	po := l.o.Process
	res, err := process.Run(ctx, process.Options{Workdir: l.s.Workdir, Command: inf.Command, Model: inf.Model,
		MaxTurns: remaining, Task: task, Notices: processNotices, Prompt: l.prompt.text, Tools: specs,
		Dispatcher: p, Trace: processTrace{p}, Env: po.Env, Sandbox: po.Sandbox, Timeout: po.Timeout, Log: l.log})
	p.close()
	if err != nil {
		return attemptEnd{}, processError(err)
	}
	return attemptEnd{text: res.Text}, nil
}

// processRun is what an attempt's stream reader and its bridge share;
// they run on different goroutines, so mu orders their bookkeeping.
type processRun struct {
	l  *loop
	a  *attemptRun
	mu sync.Mutex
	// turn is the stream's current turn, the one a bridge call belongs to.
	turn uint32
	// closed is set once the run returned; inflight counts the calls
	// still running then. The bridge's server does not wait for its
	// handlers, and none may touch the run after the attempt.
	closed   bool
	inflight sync.WaitGroup
}

// close refuses later bridge calls and waits for those in flight (their
// context ends with the bridge's connections).
func (p *processRun) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.inflight.Wait()
}

// errBridgeClosed answers a call that arrives after the attempt ended.
const errBridgeClosed = "the session's tool bridge is closed"

// Call is one bridge call, through the loop's dispatcher (session.md
// §2.4). The on-tool-call hook fires here, for what actually ran: a CLI
// that leaves a call out of its stream cannot hide it from a hook. The
// tool_call line is the stream's (processTrace), so a shell call's shell
// line comes before it.
func (p *processRun) Call(ctx context.Context, name, input string) (string, bool) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errBridgeClosed, true
	}
	p.inflight.Add(1)
	p.mu.Unlock()
	defer p.inflight.Done()
	l := p.l
	h := l.d.resolve(name)
	kind := l.toolKind(name, h)
	p.mu.Lock()
	turn := p.turn
	p.mu.Unlock()
	l.emitTask(p.a.taskRun, observe.Event{Kind: observe.ToolStart, Turn: turn, Name: name, ToolKind: kind, Input: input})
	start := l.now()
	o, fatal := l.d.run(tools.WithTaskIO(ctx, p.a.t.IO), h, toolCall{Name: name, Input: input})
	l.emitToolEnd(p.a.taskRun, turn, name, kind, l.now().Sub(start), o, ctx.Err() != nil)
	dur := durMS(l.now().Sub(start))
	if fatal != nil {
		// The loop ends the session here; the bridge cannot, so the CLI
		// is told and the failure logged.
		l.log.Warn("a bridge call's shell runner failed", "tool", name, "err", fatal)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	status := "ok"
	if o.isError {
		status = "error"
	}
	l.hooks.ToolCall(ctx, ToolEvent{Turn: p.turn, ToolName: name, InputBytes: uint64(len(input)),
		OutputBytes: uint64(len(o.text)), DurationMS: dur, Status: status})
	l.writeHookInferences(p.a, p.turn)
	if o.shell != nil {
		if err := l.recordShell(ctx, p.a, p.turn, o.shell); err != nil {
			l.log.Warn("writing a bridge call's shell record", "err", err)
		}
	}
	return o.text, o.isError
}

// processTrace writes the stream's records to the run's trace. A
// false count from the stream cannot break the counts invariant: totals
// are counted as the lines are written.
type processTrace struct{ p *processRun }

func (t processTrace) Inference(r process.InferenceRecord) error {
	p := t.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.turn = r.Turn
	var name *string
	if r.ToolName != "" {
		name = &r.ToolName
	}
	if err := p.l.tr.Write(trace.TypeInference, &trace.Inference{Turn: r.Turn, Decision: r.Decision, ToolName: name}); err != nil {
		return err
	}
	p.a.turn.Store(r.Turn)
	p.l.emitTask(p.a.taskRun, observe.Event{Kind: observe.ModelEnd, Turn: r.Turn, Name: p.l.s.Capsule.Inference.Model,
		Decision: r.Decision, Status: "ok"})
	p.l.count(p.a, counts{turns: 1})
	return nil
}

func (t processTrace) ToolCall(r process.ToolCallRecord) error {
	p := t.p
	p.mu.Lock()
	defer p.mu.Unlock()
	l, dur := p.l, durMS(r.Duration)
	// A skill is a skill_call, outside the tool totals, as in the loop.
	if l.d.resolve(r.ToolName).skill {
		return l.tr.Write(trace.TypeSkillCall, &trace.SkillCall{Turn: r.Turn, SkillName: r.ToolName,
			OutputBytes: r.OutputBytes, DurationMS: dur, Status: r.Status})
	}
	rec := l.toolRecord(r.Turn, toolCall{Name: r.ToolName, Input: string(r.Input)}, outcome{text: r.Output}, dur, r.Status)
	if err := l.tr.Write(trace.TypeToolCall, rec); err != nil {
		return err
	}
	l.count(p.a, counts{toolCalls: 1})
	return nil
}

// SessionEnd carries the run's totals, not the CLI's own counts: they
// were added as the lines were written.
func (t processTrace) SessionEnd(r process.SessionEndRecord) error {
	p := t.p
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.l.writeSessionEnd(r.ExitStatus)
}

// toolSpecs is the loop's inventory as the bridge advertises it.
func toolSpecs(inv []any) ([]process.ToolSpec, error) {
	specs := make([]process.ToolSpec, 0, len(inv))
	for _, e := range inv {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("inventory entry %T is not an object", e)
		}
		schema, err := json.Marshal(m["parameters"])
		if err != nil {
			return nil, fmt.Errorf("tool %v input_schema: %w", m["name"], err)
		}
		name, _ := m["name"].(string)
		desc, _ := m["description"].(string)
		specs = append(specs, process.ToolSpec{Name: name, Description: desc, InputSchema: schema})
	}
	return specs, nil
}
