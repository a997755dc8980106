package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mur-go/mur/sandbox"
	"github.com/mur-go/mur/stage"
	"github.com/mur-go/mur/tools"
	"github.com/mur-go/mur/transport/process"
)

// ProcessOptions are what a transport: process attempt needs beyond
// Options, whose Driver it does not use (see launch.NewProcessTools).
type ProcessOptions struct {
	// Env and Sandbox start the CLI as a native tool starts.
	Env     tools.SubprocessEnv
	Sandbox *sandbox.Trampoline
	// Trace receives the attempt's trace records; nil discards them.
	Trace process.Trace
	// Timeout bounds the CLI; 0 means process.DefaultTimeout.
	Timeout time.Duration
}

// RunProcess runs the task in task.md through the capsule's agent CLI
// (session.md §6) instead of a driver: the CLI is given the two notices
// and the resolved prompt, and the bridge serves it the loop's inventory,
// each call going through the loop's dispatch. Like Run, it writes every
// outcome to out/result.txt and a failure is an *Error.
func RunProcess(ctx context.Context, o Options, p ProcessOptions) (Outcome, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if p.Trace == nil {
		p.Trace = discardTrace{}
	}
	s := o.Session
	popts, err := processRun(s, o, p)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = failure(KindIO, err, "%v", err)
		}
		if werr := s.WriteResult("error: " + e.Msg); werr != nil {
			o.Log.Warn("recording the failure in out/result.txt", "err", werr)
		}
		return Outcome{}, e
	}
	res, err := process.Run(ctx, popts)
	if err != nil {
		return Outcome{Turns: int(res.Turns)}, processError(err)
	}
	return Outcome{Text: res.Text, Turns: int(res.Turns)}, nil
}

// processRun gathers what the CLI is run with; a failure here comes
// before anything started.
func processRun(s *stage.Session, o Options, p ProcessOptions) (process.Options, error) {
	prompt, err := resolvePrompt(s)
	if err != nil {
		return process.Options{}, err
	}
	task, err := readTask(s)
	if err != nil {
		return process.Options{}, err
	}
	specs, err := toolSpecs(s)
	if err != nil {
		return process.Options{}, failure(KindIO, err, "building the tool inventory: %v", err)
	}
	inf := s.Capsule.Inference
	return process.Options{Session: s, Command: inf.Command, Model: inf.Model, MaxTurns: inf.MaxTurns, Task: task,
		Notices: Notices, Prompt: prompt, Tools: specs, Trace: p.Trace, Env: p.Env, Sandbox: p.Sandbox,
		Timeout: p.Timeout, Log: o.Log,
		Dispatcher: bridgeDispatch{&dispatcher{session: s, tools: o.Tools, allowlist: o.Allowlist, shell: o.Shell}}}, nil
}

// toolSpecs is the loop's inventory as the bridge advertises it.
func toolSpecs(s *stage.Session) ([]process.ToolSpec, error) {
	inv, err := inventory(s)
	if err != nil {
		return nil, err
	}
	specs := make([]process.ToolSpec, 0, len(inv))
	for _, e := range inv {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("inventory entry %T is not an object", e)
		}
		schema, err := json.Marshal(m["parameters"])
		if err != nil {
			return nil, err
		}
		name, _ := m["name"].(string)
		desc, _ := m["description"].(string)
		specs = append(specs, process.ToolSpec{Name: name, Description: desc, InputSchema: schema})
	}
	return specs, nil
}

// bridgeDispatch is the loop's dispatch behind the bridge.
type bridgeDispatch struct{ d *dispatcher }

func (b bridgeDispatch) Call(ctx context.Context, name, input string) (string, bool) {
	return b.d.call(ctx, toolCall{Name: name, Input: input})
}

// processError is a failed CLI run as the loop's *Error, so the caller
// maps it to a status as it does a driver's.
func processError(err error) *Error {
	var pe *process.Error
	if !errors.As(err, &pe) {
		return failure(KindIO, err, "%v", err)
	}
	kind := KindDriver
	switch pe.Kind {
	case process.KindCancelled:
		kind = KindCancelled
	case process.KindMaxTurns:
		kind = KindMaxTurns
	case process.KindIO, process.KindTrace:
		kind = KindIO
	}
	return &Error{Kind: kind, Code: pe.Code, Msg: pe.Msg, Err: pe}
}

type discardTrace struct{}

func (discardTrace) Inference(process.InferenceRecord) error   { return nil }
func (discardTrace) ToolCall(process.ToolCallRecord) error     { return nil }
func (discardTrace) SessionEnd(process.SessionEndRecord) error { return nil }
