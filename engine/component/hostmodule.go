package component

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/component/internal/storelife"
)

// compileHostModule builds the module exporting the plan's host functions
// (lowered imports and resource built-ins). It is compiled once per
// component; its functions find their store through the call's context.
func compileHostModule(ctx context.Context, rt wazero.Runtime, p *plan.Plan) (wazero.CompiledModule, error) {
	b := rt.NewHostModuleBuilder(plan.HostModule)
	i32 := []api.ValueType{api.ValueTypeI32}
	for i, h := range p.HostFuncs {
		fb := b.NewFunctionBuilder()
		switch h.Kind {
		case plan.HostLower:
			sig := h.Target.ABI.LowerSignature()
			fb = fb.WithGoModuleFunction(lowerTrampoline(i), sig.Params, sig.Results)
		case plan.HostResourceNew, plan.HostResourceRep:
			fb = fb.WithGoModuleFunction(resourceTrampoline(p, i), i32, i32)
		case plan.HostResourceDrop:
			fb = fb.WithGoModuleFunction(resourceTrampoline(p, i), i32, nil)
		}
		fb.Export(plan.HostFuncName(i))
	}
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(yield), nil, nil).Export(plan.YieldFunc)
	return b.Compile(ctx)
}

// yield is called by a guest loop every coremod.FuelRefill iterations
// (see coremod.AddInterruptChecks). Being a trip into Go, it is where the
// scheduler can preempt a long-running guest; it refills the caller's fuel
// and traps the guest once its call's context has ended.
func yield(ctx context.Context, mod api.Module, _ []uint64) {
	if g, ok := mod.ExportedGlobal(coremod.FuelGlobal).(api.MutableGlobal); ok {
		g.Set(coremod.FuelRefill)
	}
	if err := loopYield(ctx); err != nil {
		trap(err)
	}
}

// loopYield is what a guest loop does every coremod.FuelRefill
// iterations, called by wazero's compiled code where it counts them
// (experimental.WithLoopYield) and by yield where the modules count them:
// it ends the call, with the error yield traps with, once its context
// has ended. It reads the deadline itself rather than waiting for the
// context's timer: that timer may sit on the very processor the spinning
// guest occupies.
func loopYield(ctx context.Context) error {
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return errDeadlineReached
	}
	if s := storeFrom(ctx); (s != nil && s.interrupted.Load()) || ctx.Err() != nil {
		return errInterrupted
	}
	return nil
}

// errDeadlineReached and errInterrupted end a guest whose call's context
// ended; the caller reports them as a deadline or a cancellation.
var (
	errDeadlineReached = errors.New("guest reached its deadline")
	errInterrupted     = errors.New("guest interrupted")
)

// trap ends a host function with err: wazero turns the panic into an error
// returned from the guest call that is running.
func trap(err error) {
	panic(err)
}

func lowerTrampoline(i int) api.GoModuleFunction {
	return api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
		s := storeFrom(ctx)
		if s == nil {
			trap(fmt.Errorf("host function called outside a store call"))
		}
		if err := s.callLowered(ctx, i, stack); err != nil {
			trap(err)
		}
	})
}

// loweredRT is a lowered function's per-store state: the canonical options
// of the calling instance.
type loweredRT struct {
	opts canon.Options
	hs   handles
}

func (s *Store) callLowered(ctx context.Context, i int, stack []uint64) error {
	h := s.comp.plan.HostFuncs[i]
	rec := s.life.Rec
	if rec != nil {
		rec.Observe(h.Target)
	}
	rt := s.lowers[i]
	if rt == nil {
		opts, err := s.options(h.Opts, storelife.SiteKey{Role: loweredRealloc, Idx: i})
		if err != nil {
			return err
		}
		rt = &loweredRT{opts: opts, hs: handles{s: s, compInst: h.CompInst}}
		rt.opts.Handles = &rt.hs
		s.lowers[i] = rt
	}
	scope := &callScope{}
	rt.hs.scope = scope
	abi := h.Target.ABI
	args, err := abi.LiftArgs(ctx, &rt.opts, stack[:len(abi.LowerSignature().Params)])
	if err != nil {
		return err
	}
	// The caller may not be re-entered while the callee runs.
	prev := s.active[h.CompInst]
	s.active[h.CompInst] = true
	v, err := s.callFunc(ctx, h.Target, args)
	s.active[h.CompInst] = prev
	scope.release()
	var argsErr *argsError
	if errors.As(err, &argsErr) {
		// Values lifted from the calling guest did not fit the callee: the
		// guest's doing, so a trap, not a host mistake.
		return &canon.Trap{Reason: argsErr.Error()}
	}
	if err != nil {
		return err
	}
	if rec != nil {
		return rec.Lower(ctx, i, h, &rt.opts, v, stack)
	}
	return abi.LowerResult(ctx, &rt.opts, v, stack, stack)
}

func resourceTrampoline(p *plan.Plan, i int) api.GoModuleFunction {
	h := p.HostFuncs[i]
	return api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
		s := storeFrom(ctx)
		if s == nil {
			trap(fmt.Errorf("resource built-in called outside a store call"))
		}
		tab := &s.tables[h.CompInst]
		switch h.Kind {
		case plan.HostResourceNew:
			if s.life.Rec != nil {
				s.life.Rec.Deny("initialisation made a resource of its own")
			}
			idx, err := tab.insert(handleEntry{typ: h.Resource, rep: uint32(stack[0]), own: true})
			if err != nil {
				trap(err)
			}
			stack[0] = uint64(idx)
		case plan.HostResourceRep:
			e, err := tab.get(uint32(stack[0]))
			if err != nil {
				trap(err)
			}
			if e.typ != h.Resource {
				trap(&canon.Trap{Reason: "resource.rep: handle is not a " + resName(h.Resource)})
			}
			stack[0] = uint64(e.rep)
		case plan.HostResourceDrop:
			if s.life.Rec != nil {
				s.life.Rec.Dropped(i, h, s.comp.plan, uint32(stack[0]))
			}
			if err := s.dropHandle(ctx, h, uint32(stack[0])); err != nil {
				trap(err)
			}
		}
	})
}

// dropHandle implements resource.drop: an own handle's resource is
// destroyed (guest destructor or host Destructor); a borrow handle is
// released from its call.
func (s *Store) dropHandle(ctx context.Context, h *plan.HostFunc, idx uint32) error {
	tab := &s.tables[h.CompInst]
	e, err := tab.get(idx)
	if err != nil {
		return err
	}
	want := s.runtimeType(h.Resource)
	if e.typ != want {
		return &canon.Trap{Reason: "resource.drop: handle is not a " + resName(want)}
	}
	if !e.own {
		if e.scope != nil {
			e.scope.borrows--
		}
		tab.remove(idx)
		return nil
	}
	if e.lends > 0 {
		return &canon.Trap{Reason: "resource.drop: handle is still borrowed"}
	}
	rep := e.rep
	tab.remove(idx)
	if def, ok := s.comp.plan.Resources[h.Resource]; ok {
		if def.Dtor == nil {
			return nil
		}
		f, err := s.coreFunc(*def.Dtor)
		if err != nil {
			return err
		}
		return f.CallWithStack(ctx, []uint64{uint64(rep)})
	}
	if dtor := s.linked.dtors[want]; dtor != nil {
		err := dtor(ctx, s, rep)
		if s.abandoned() {
			return errAbandoned
		}
		return err
	}
	return nil
}
