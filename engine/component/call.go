package component

import (
	"context"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/component/internal/storelife"
	"github.com/mur-go/mur/engine/wit"
)

// Func is an exported component function bound to an instance.
type Func struct {
	s    *Store
	def  *plan.Func
	name string
}

// Func looks up an exported function: "instance#func" (e.g.
// "murmur:tool/run@0.2.0#run") or a root-level "func".
func (i *Instance) Func(export string) (*Func, error) {
	it, err := lookupExport(i.s.comp.plan, export)
	if err != nil {
		return nil, err
	}
	return &Func{s: i.s, def: it.Func, name: export}, nil
}

// Type returns the function's WIT type.
func (f *Func) Type() *wit.Func { return f.def.Type }

// Call calls the function with args (see package wit for the Go value of
// each WIT type) under the store's deadline. Errors are *DeadlineError,
// *LimitError, *TrapError (the instance is then poisoned) or an error about
// the arguments.
func (f *Func) Call(ctx context.Context, args ...any) (any, error) {
	s := f.s
	if err := s.poisoned(); err != nil {
		return nil, fmt.Errorf("calling %s: %w: %w", f.name, ErrPoisoned, err)
	}
	nested := storeFrom(ctx) == s
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	// A refused growth the guest survived in an earlier call says nothing
	// about how this one ends.
	s.inst.Mem.Desired = 0
	var (
		v   any
		err error
	)
	if runsInline(ctx, nested) {
		// No closure, so that the result does not escape to the heap.
		v, err = s.callFunc(ctx, f.def, args)
	} else {
		var res any
		err = s.run(ctx, nested, func() error {
			var err error
			res, err = s.callFunc(ctx, f.def, args)
			return err
		})
		v = res
	}
	if err != nil {
		return nil, s.classify(ctx, f.name, err)
	}
	return v, nil
}

// liftedRT is a lifted function's per-store state, built on first call.
type liftedRT struct {
	fn   api.Function
	post api.Function
	opts canon.Options
	hs   handles
}

func (s *Store) liftedState(fn *plan.Func) (*liftedRT, error) {
	if rt := s.lifted[fn.ID]; rt != nil {
		return rt, nil
	}
	core, err := s.siteFunc(storelife.SiteKey{Role: liftedCore, Idx: fn.ID}, fn.Core)
	if err != nil {
		return nil, err
	}
	rt := &liftedRT{fn: core, hs: handles{s: s, compInst: fn.CompInst}}
	if rt.opts, err = s.options(fn.Opts, storelife.SiteKey{Role: liftedRealloc, Idx: fn.ID}); err != nil {
		return nil, err
	}
	rt.opts.Handles = &rt.hs
	if fn.Opts.PostReturn != nil {
		if rt.post, err = s.siteFunc(storelife.SiteKey{Role: liftedPost, Idx: fn.ID}, *fn.Opts.PostReturn); err != nil {
			return nil, fmt.Errorf("post-return: %w", err)
		}
	}
	s.lifted[fn.ID] = rt
	return rt, nil
}

// callFunc calls a component function with Go values: a lifted guest
// function through the canonical ABI, or an imported one on the host.
func (s *Store) callFunc(ctx context.Context, fn *plan.Func, args []any) (any, error) {
	if fn.Imported {
		v, err := s.linked.funcs[fn.ID].fn(ctx, s, args)
		if s.abandoned() {
			// The host function returned after its caller gave up: the
			// guest must not carry on.
			return nil, errAbandoned
		}
		return v, err
	}
	if s.active[fn.CompInst] {
		return nil, &canon.Trap{Reason: "cannot re-enter a component instance that is already running"}
	}
	rt, err := s.liftedState(fn)
	if err != nil {
		return nil, err
	}
	scope := &callScope{}
	rt.hs.scope = scope
	stack, err := func() ([]uint64, error) {
		s.guard()
		defer s.unguard()
		return fn.ABI.LowerArgs(ctx, &rt.opts, args, nil)
	}()
	if err != nil {
		// The guest's realloc runs while arguments are lowered: if it failed
		// or lied, the guest is at fault and the store is poisoned; any other
		// failure is the host's arguments, refused before the guest ran.
		var (
			trap  *canon.Trap
			guest *reallocFault
		)
		if errors.Is(err, errAbandoned) || errors.As(err, &trap) || errors.As(err, &guest) {
			return nil, err
		}
		return nil, &argsError{err}
	}
	s.active[fn.CompInst] = true
	err = rt.fn.CallWithStack(ctx, stack)
	s.active[fn.CompInst] = false
	if s.abandoned() {
		return nil, errAbandoned
	}
	if err != nil {
		return nil, err
	}
	nres := len(fn.ABI.LiftSignature().Results)
	v, err := fn.ABI.LiftResult(ctx, &rt.opts, stack[:nres])
	if err != nil {
		return nil, err
	}
	if rt.post != nil {
		if err := rt.post.CallWithStack(ctx, stack); err != nil {
			return nil, fmt.Errorf("post-return: %w", err)
		}
	}
	scope.release()
	if scope.borrows != 0 {
		return nil, &canon.Trap{Reason: fmt.Sprintf("%d borrowed handles were not dropped before the call returned", scope.borrows)}
	}
	return v, nil
}

// classify turns an error from a call into the engine's error classes.
// Anything that went wrong once the guest was running poisons the store:
// the guest was unwound mid-flight and its state can't be trusted.
func (s *Store) classify(ctx context.Context, name string, err error) error {
	var (
		args   *argsError
		exit   *sys.ExitError
		budget *canon.BudgetError
		limit  *LimitError
	)
	switch {
	case errors.Is(err, errAbandoned):
		// The call may still be running: nothing it writes (the memory
		// limiter's record, say) may be read here.
		var e error = &DeadlineError{Func: name, Deadline: s.Limits.Deadline}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e = &TrapError{Func: name, Err: fmt.Errorf("call canceled and abandoned: %w", context.Canceled)}
		}
		s.poisonWith(e)
		return e
	case errors.As(err, &args):
		// The host's arguments were refused before the guest ran.
		return args.err
	case errors.As(err, &budget):
		e := &LimitError{Limit: LimitLiftedBytes, Desired: budget.Desired, Max: budget.Max, Func: name}
		s.poisonWith(e)
		return e
	case errors.As(err, &limit) && limit.Func == "":
		// A limit hit inside a host function (the handle cap): name the call.
		e := *limit
		e.Func = name
		s.poisonWith(&e)
		return &e
	case isPoisoning(err):
		// Already classified by a nested call.
		s.poisonWith(err)
		return err
	case errors.Is(err, errDeadlineReached) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		(errors.As(err, &exit) && exit.ExitCode() == sys.ExitCodeDeadlineExceeded):
		e := &DeadlineError{Func: name, Deadline: s.Limits.Deadline}
		s.poisonWith(e)
		return e
	case errors.Is(ctx.Err(), context.Canceled) ||
		(errors.As(err, &exit) && exit.ExitCode() == sys.ExitCodeContextCanceled):
		e := &TrapError{Func: name, Err: fmt.Errorf("call canceled: %w", context.Canceled)}
		s.poisonWith(e)
		return e
	case s.inst.Mem.Desired != 0:
		e := &LimitError{Limit: LimitMemory, Desired: s.inst.Mem.Desired, Max: s.Limits.MaxMemoryBytes, Func: name, Err: err}
		s.inst.Mem.Desired = 0
		s.poisonWith(e)
		return e
	}
	e := &TrapError{Func: name, Err: err}
	s.poisonWith(e)
	return e
}

// reallocFault marks a failure of the guest's realloc itself (a trap, a
// deadline): guest code ran and failed.
type reallocFault struct{ err error }

func (e *reallocFault) Error() string { return e.err.Error() }
func (e *reallocFault) Unwrap() error { return e.err }

// argsError marks arguments the host passed that could not be lowered.
type argsError struct{ err error }

func (e *argsError) Error() string { return e.err.Error() }
func (e *argsError) Unwrap() error { return e.err }

// poisonWith poisons the store with err unless it already is.
func (s *Store) poisonWith(err error) {
	s.poison.CompareAndSwap(nil, &err)
}

// poisoned returns what poisoned the store, or nil.
func (s *Store) poisoned() error {
	if p := s.poison.Load(); p != nil {
		return *p
	}
	return nil
}

func isPoisoning(err error) bool {
	var (
		d *DeadlineError
		l *LimitError
		t *TrapError
	)
	return errors.As(err, &d) || errors.As(err, &l) || errors.As(err, &t)
}

// DropResource destroys a resource of a type the guest defined that the
// host owns (received as own<T>), running the guest's destructor. Host
// resources never need this: the host owns them already.
func (i *Instance) DropResource(ctx context.Context, r wit.Resource) error {
	s := i.s
	def, ok := s.comp.plan.Resources[r.Type]
	if !ok {
		return fmt.Errorf("drop %s: not a resource type defined by this component", resName(r.Type))
	}
	if err := s.poisoned(); err != nil {
		return fmt.Errorf("drop %s: %w: %w", resName(r.Type), ErrPoisoned, err)
	}
	if def.Dtor == nil {
		return nil
	}
	f, err := s.coreFunc(*def.Dtor)
	if err != nil {
		return err
	}
	nested := storeFrom(ctx) == s
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	if err := s.run(ctx, nested, func() error { return f.CallWithStack(ctx, []uint64{uint64(r.Rep)}) }); err != nil {
		return s.classify(ctx, "destructor of "+resName(r.Type), err)
	}
	return nil
}
