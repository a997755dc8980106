package agent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// errNoShell is the result of a call to a shell.allow binary when the
// loop was given no shell runner: the model is told plainly rather than
// the call being dropped.
const errNoShell = "shell tools are not available in this session"

// dispatcher resolves a tool_call name the way session.md §2.4 orders it:
// a native tool, a shell.allow binary, a skill, then (beyond the spec) an
// MCP server's mcp__ tool, an allowlisted WASM tool.
type dispatcher struct {
	staged    stage.LoopView
	tools     tools.Tools
	allowlist []string
	shell     tools.ShellRunner
	mcp       tools.Catalog
}

// handler is what a name resolved to: a tool (an MCP server's when mcp
// is set), the shell, or an error text for the model.
type handler struct {
	tool    tools.Tool
	skill   bool
	shell   bool
	mcp     bool
	errText string
}

func (d *dispatcher) resolve(name string) handler {
	var staged *stage.Artifact
	for _, a := range d.staged.Artifacts {
		if a.Name == name {
			staged = a
			break
		}
	}
	allowed := slices.Contains(d.allowlist, name)
	if staged != nil && staged.Kind == stage.KindNative && allowed {
		if t, ok := d.tools.Lookup(name); ok {
			return handler{tool: t}
		}
	}
	if slices.Contains(d.staged.Capsule.Capabilities.ShellAllow(), name) {
		if d.shell == nil {
			return handler{errText: errNoShell}
		}
		return handler{shell: true}
	}
	if staged != nil && staged.Kind == stage.KindSkill {
		return handler{tool: &tools.SkillTool{Name: name, Text: staged.SkillText}, skill: true}
	}
	if d.mcp != nil && strings.HasPrefix(name, tools.MCPPrefix) {
		if t, ok := d.mcp.Lookup(name); ok {
			return handler{tool: t, mcp: true}
		}
		return handler{errText: tools.ErrNotAvailable(name).Error()}
	}
	if !allowed {
		return handler{errText: tools.ErrNotDeclared(name).Error()}
	}
	if t, ok := d.tools.Lookup(name); ok {
		return handler{tool: t}
	}
	return handler{errText: tools.ErrNotAvailable(name).Error()}
}

// outcome is one call's result: the text and error flag the model sees
// (session.md §2.5), the metadata the trace keeps, the shell run if any.
type outcome struct {
	text    string
	isError bool
	meta    []tools.Pair
	shell   *tools.ShellOutcome
	// exit is how a native tool's process ended (nil for other tools).
	exit *tools.Exit
}

// run dispatches one call and takes the session's secrets out of what
// it answered, before anything reads it: the model's next request, the
// trace, the task's artifact, the hooks' events, the bridge's reply to an
// agent CLI. Tools never hold a secret, but a shell command can print a
// file that does.
func (d *dispatcher) run(ctx context.Context, h handler, c toolCall) (outcome, error) {
	o, fatal := d.invoke(ctx, h, c)
	secrets := d.staged.Secrets()
	if !secrets.Active() {
		return o, fatal
	}
	o.text = secrets.String(o.text)
	for i, kv := range o.meta {
		o.meta[i] = tools.Pair{Key: secrets.String(kv.Key), Value: secrets.String(kv.Value)}
	}
	if sh := o.shell; sh != nil {
		red := *sh
		red.Command, red.Stdout, red.Stderr = secrets.String(sh.Command), secrets.String(sh.Stdout), secrets.String(sh.Stderr)
		o.shell = &red
	}
	return o, secrets.Error(fatal)
}

func (d *dispatcher) invoke(ctx context.Context, h handler, c toolCall) (outcome, error) {
	switch {
	case h.errText != "":
		return outcome{text: h.errText, isError: true}, nil
	case h.shell:
		so, err := d.shell.RunShell(ctx, c.Name, c.Input)
		if err != nil {
			return outcome{text: err.Error(), isError: true}, err
		}
		o := outcome{text: so.Text, isError: so.IsError}
		if so.Ran {
			o.shell = &so
		}
		if so.Truncated {
			o.meta = []tools.Pair{{Key: "full_output_path", Value: so.LogPath}}
		}
		return o, nil
	}
	in := c.Input
	r, err := h.tool.Invoke(ctx, tools.ToolInput{Data: &in})
	if err != nil {
		// A sealed root that could not be built ends the session
		// (E-RUN-014); every other failure is the call's.
		var fatal error
		if errors.Is(err, sandbox.ErrSealedRoot) {
			fatal = err
		}
		return outcome{text: err.Error(), isError: true}, fatal
	}
	text := "tool returned no data"
	switch {
	case r.Data != nil:
		text = *r.Data
	case r.Summary != nil:
		text = *r.Summary
	}
	return outcome{text: text, isError: r.Status != tools.StatusPassed, meta: r.Metadata, exit: r.Exit}, nil
}

// callTool is one tool call of a turn: dispatchCall, then the tool
// message for the model.
func (l *loop) callTool(ctx context.Context, a *attemptRun, turn uint32, c toolCall) (map[string]any, error) {
	o, err := l.dispatchCall(ctx, a, turn, c)
	if err != nil {
		return nil, err
	}
	return toolMessage(c.ID, o.isError, o.text), nil
}

// dispatchCall is one tool call in session.md §2.4's order: dispatch, the
// on-tool-call hook, its tool_call (or skill_call) record, then for a
// shell command the on-shell hook and its shell record, then the artifact
// event. It returns what the call answered; a served session's calls
// (ServeTools) take the same path.
func (l *loop) dispatchCall(ctx context.Context, a *attemptRun, turn uint32, c toolCall) (outcome, error) {
	h := l.d.resolve(c.Name)
	kind := l.toolKind(c.Name, h)
	l.emitTask(a.taskRun, observe.Event{Kind: observe.ToolStart, Turn: turn, Name: c.Name, ToolKind: kind, Input: c.Input})
	start := l.now()
	o, fatal := l.d.run(tools.WithTaskIO(ctx, a.t.IO), h, c)
	l.emitToolEnd(a.taskRun, turn, c.Name, kind, l.now().Sub(start), o, ctx.Err() != nil)
	dur := durMS(l.now().Sub(start))
	if cerr := cancelled(ctx); cerr != nil {
		return outcome{}, l.interrupted(a, turn, c, h, o, dur, cerr)
	}
	status := "ok"
	if o.isError {
		status = "error"
	}
	l.hooks.ToolCall(ctx, ToolEvent{Turn: turn, ToolName: c.Name, InputBytes: uint64(len(c.Input)),
		OutputBytes: uint64(len(o.text)), DurationMS: dur, Status: status})
	l.writeHookInferences(a, turn)
	if h.skill {
		if err := l.tr.Write(trace.TypeSkillCall, &trace.SkillCall{Turn: turn, SkillName: c.Name,
			OutputBytes: uint64(len(o.text)), DurationMS: dur, Status: status}); err != nil {
			return outcome{}, traceFailed(err)
		}
	} else {
		if err := l.tr.Write(trace.TypeToolCall, l.toolRecord(turn, c, o, dur, status)); err != nil {
			return outcome{}, traceFailed(err)
		}
		l.count(a, counts{toolCalls: 1})
	}
	if fatal != nil {
		return outcome{}, toolFatal(h.shell, c.Name, fatal)
	}
	if sh := o.shell; sh != nil {
		if err := l.recordShell(ctx, a, turn, sh); err != nil {
			return outcome{}, err
		}
	}
	a.events.Artifact(c.Name, o.text)
	return o, nil
}

// interrupted records a call the cancellation of its task or run cut
// short: its tool_call marked cancelled, status error (a skill, which
// cannot block, has nothing to record). No hook hears of it: they are
// stopping too. It returns the cancellation, which ends the attempt.
func (l *loop) interrupted(a *attemptRun, turn uint32, c toolCall, h handler, o outcome, dur uint64, cerr error) error {
	if h.skill {
		return cerr
	}
	rec := l.toolRecord(turn, c, o, dur, "error")
	rec.Cancelled = true
	if err := l.tr.Write(trace.TypeToolCall, rec); err != nil {
		l.log.Warn("recording the interrupted tool call", "tool", c.Name, "err", err)
		return cerr
	}
	l.count(a, counts{toolCalls: 1})
	return cerr
}

// recordShell is a shell command that ran: the on-shell hook, its shell
// record, the count.
func (l *loop) recordShell(ctx context.Context, a *attemptRun, turn uint32, sh *tools.ShellOutcome) error {
	l.hooks.Shell(ctx, shellEvent(turn, sh))
	rec := &trace.Shell{Turn: turn, Binary: sh.Binary, Command: sh.Command, ExitCode: sh.ExitCode,
		StdoutBytes: uint64(len(sh.Stdout)), StderrBytes: uint64(len(sh.Stderr)), DurationMS: durMS(sh.Duration)}
	if sh.ResourceLimit != "" {
		rec.ResourceLimit = &sh.ResourceLimit
	}
	if err := l.tr.Write(trace.TypeShell, rec); err != nil {
		return traceFailed(err)
	}
	l.count(a, counts{shellCalls: 1})
	return nil
}

func (l *loop) toolRecord(turn uint32, c toolCall, o outcome, dur uint64, status string) *trace.ToolCall {
	var input any
	if err := decode(c.Input, &input); err != nil {
		input = map[string]any{}
	}
	rec := &trace.ToolCall{Turn: turn, ToolName: c.Name, Input: input, InputBytes: uint64(len(c.Input)),
		OutputBytes: uint64(len(o.text)), DurationMS: dur, Status: status}
	if l.s.Capsule.IncludeToolOutput {
		rec.Output = &o.text
	}
	if v := metadata(o.meta, "state_effect"); v != "" {
		rec.StateEffect = &v
	}
	if v := metadata(o.meta, "resource_id"); v != "" {
		rec.ResourceID = &v
	}
	if e := o.exit; e != nil {
		rec.ExitCode = &e.Code
		if e.Signal != "" {
			rec.Signal = &e.Signal
		}
	}
	return rec
}

// shellEvent is the on-shell event: the command cut to 200 characters.
func shellEvent(turn uint32, sh *tools.ShellOutcome) ShellEvent {
	cmd := []rune(sh.Command)
	if len(cmd) > 200 {
		cmd = cmd[:200]
	}
	return ShellEvent{Turn: turn, Binary: sh.Binary, Command: string(cmd), ExitCode: sh.ExitCode,
		Stdout: sh.Stdout, Stderr: sh.Stderr, StdoutBytes: uint64(len(sh.Stdout)), StderrBytes: uint64(len(sh.Stderr)),
		DurationMS: durMS(sh.Duration)}
}

// toolFatal is the session-ending failure of a call: a coded cause
// (E-RUN-014) as it is, anything else E-RUN-001.
func toolFatal(shell bool, name string, err error) error {
	var d *diag.Error
	if errors.As(err, &d) {
		return diag.Mark(err, KindTool)
	}
	what := "tool"
	if shell {
		what = "shell tool"
	}
	return failure(KindTool, err, "%s '%s' failed: %v", what, name, err)
}
