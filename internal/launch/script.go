package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// capsuleStore is the capsule store's data: its WASI context and the
// state behind Murmur's host interfaces.
type capsuleStore struct {
	wasi *wasip2.Ctx
	host *host.Capsule
}

// Script runs a staged script capsule once: compile its component, build
// the capsule store (WASI grants from the manifest, Murmur's host
// interfaces over the staged tools), instantiate, call
// murmur:capsule/run@0.1.0#run under capabilities.limits, and report how
// it ended. nil means the run succeeded; any failure is a coded error
// (*diag.Error), marked ErrCancelled or ErrTrapped when it ended so.
func Script(ctx context.Context, opts Options) error {
	o := opts.withDefaults()
	s := o.Staged
	if s.Capsule.IsAgent() {
		return &diag.Error{Code: CodeRun,
			Msg: "an agent capsule (inference:) has no script component to launch: it runs through package agent (session.Run)"}
	}
	comp, err := compileCapsule(ctx, &o)
	if err != nil {
		return err
	}
	toolLinker, err := host.NewToolLinker()
	if err != nil {
		return fmt.Errorf("linking the tool host: %w", err)
	}
	tb, err := newToolbox(&o, toolLinker)
	if err != nil {
		return &diag.Error{Code: CodeIO, Err: err, Msg: err.Error()}
	}
	var sends []a2a.SendRecord
	state := &host.Capsule{
		SessionID: s.ID,
		Allowlist: tb.allowlist,
		Tools:     tb.tools,
		Inventory: tb.inventory,
		Puller:    newPuller(&o, toolLinker, tb),
		A2A: &a2a.Client{
			Net:    s.Ceiling.Network,
			Trace:  scriptTrace(&o),
			OnSend: func(r a2a.SendRecord) { sends = append(sends, r) },
			Log:    o.Log,
		},
	}
	if err := run(ctx, &o, comp, state); err != nil {
		var e *diag.Error
		if errors.Is(err, ErrCancelled) && errors.As(err, &e) {
			if werr := s.WriteResult("error: " + e.Msg + "\n"); werr != nil {
				o.Log.Warn("recording the cancellation in out/result.txt", "err", werr)
			}
		}
		return err
	}
	// Murmur writes a2a_send records only once the run itself succeeded.
	if err := writeSendRecords(s.SessionDir, s.ID, sends); err != nil {
		o.Log.Warn("writing a2a_send trace records", "err", err)
	}
	return nil
}

// compileCapsule returns the component staging compiled, else compiles
// ComponentPath itself.
func compileCapsule(ctx context.Context, o *Options) (*component.Component, error) {
	if c := o.Staged.Component; c != nil {
		return c, nil
	}
	wasm, err := os.ReadFile(o.ComponentPath)
	if err != nil {
		return nil, &diag.Error{Code: CodeNoComponent, Err: err,
			Msg: fmt.Sprintf("failed to read the capsule component %s: %v", o.ComponentPath, err)}
	}
	c, err := o.Engine.Compile(ctx, wasm)
	if err != nil {
		return nil, &diag.Error{Code: CodeRun, Err: err,
			Msg:  fmt.Sprintf("failed to compile the capsule component %s: %v", o.ComponentPath, err),
			Hint: "the file must be a WebAssembly component exporting murmur:capsule/run@0.1.0"}
	}
	return c, nil
}

// run instantiates the capsule in its own store and calls run. The
// deadline covers instantiation and, afresh, the call, as in Murmur.
func run(ctx context.Context, o *Options, comp *component.Component, state *host.Capsule) error {
	wasi, err := wasip2.NewCtx(capsuleGrants(o))
	if err != nil {
		return &diag.Error{Code: CodeIO, Err: err,
			Msg: fmt.Sprintf("failed to grant the capsule its workdir: %v", err)}
	}
	defer wasi.Close()
	l := component.NewLinker()
	if err := wasip2.Register(l, func(st *component.Store) *wasip2.Ctx { return st.Data.(*capsuleStore).wasi }); err != nil {
		return fmt.Errorf("linking WASI: %w", err)
	}
	if err := host.RegisterCapsule(l, func(st *component.Store) *host.Capsule { return st.Data.(*capsuleStore).host }); err != nil {
		return fmt.Errorf("linking the capsule host: %w", err)
	}
	limits := guestLimits(o.Staged.Ceiling.Limits)
	store := &component.Store{Limits: limits, Data: &capsuleStore{wasi: wasi, host: state}}
	inst, err := l.Instantiate(ctx, comp, store)
	if err != nil {
		return outcome(ctx, err, limits, true)
	}
	defer func() {
		if err := inst.Close(context.WithoutCancel(ctx)); err != nil {
			o.Log.Debug("closing the capsule instance", "err", err)
		}
	}()
	if err := checkRunExport(comp.World()); err != nil {
		return err
	}
	fn, err := inst.Func(host.CapsuleRunExport)
	if err != nil {
		return missingExport(err.Error())
	}
	o.Log.Debug("calling the capsule", "export", host.CapsuleRunExport, "deadline", limits.Deadline)
	start := time.Now()
	_, err = fn.Call(ctx)
	if err != nil {
		return outcome(ctx, err, limits, false)
	}
	if cancelled(ctx) {
		return cancelledError(ctx, nil)
	}
	// Time blocked in host calls counts against the deadline but cannot
	// interrupt (wit.md §7.2); a guest with no loop to interrupt may
	// return after it. Such a run still overran its budget.
	if took := time.Since(start); took > limits.Deadline {
		return deadlineExceeded(limits.Deadline, fmt.Errorf("run returned after %s", took.Round(time.Millisecond)))
	}
	return nil
}

// outcome maps a failed instantiation or call: a cancelled run
// (interrupt, signal) says so whatever stopped it, a clean
// wasi:cli/exit(0) is success, anything else is classified.
func outcome(ctx context.Context, err error, limits component.Limits, instantiating bool) error {
	if cancelled(ctx) {
		return cancelledError(ctx, err)
	}
	var exit *wasip2.ExitError
	if errors.As(err, &exit) && exit.Code == 0 {
		return nil
	}
	return classify(err, limits, instantiating)
}

// scriptTrace is the span a script capsule's sends belong to: the run's
// own span when telemetry records one, else a span of the caller's trace
// when mur run was started within one (TRACEPARENT), else a new trace.
func scriptTrace(o *Options) a2a.TraceContext {
	if tc, ok := a2a.ParseTraceparent(o.Traceparent); ok {
		return tc
	}
	return a2a.TraceFromEnv(func(k string) string { v, _ := o.Getenv(k); return v })
}
