package component

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/memory"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/component/internal/storelife"
	"github.com/mur-go/mur/engine/wit"
)

// Store is the unit of isolation: one component instance with its core
// instances, memories, handle tables and limits. Data is the embedder's
// per-store state, reachable from host functions. A store is used by one
// goroutine at a time; use many stores for concurrency.
type Store struct {
	Limits Limits
	Data   any
	// Preinit, when set, lets the store start from a snapshot of its
	// configuration's initialisation instead of running it (preinit.go).
	Preinit *Preinit

	comp   *Component
	linked *linkedImports
	// inst are the store's wazero instances, its memories' limiter and
	// its sites' functions (sitefuncs.go); a reused store's instances
	// keep the limiter they were made with (store_reuse.go).
	inst   storelife.Instances
	tables []handleTable
	// handles counts the live handles of all tables.
	handles handleCount
	lifted  []*liftedRT
	lowers  []*loweredRT
	// poison is set when a guest trapped or ran out its deadline; every
	// later call fails with it. An abandoned call's goroutine may read it.
	poison atomic.Pointer[error]
	// abandon is how a call stuck in a host function is given up on.
	abandon abandonment
	// active marks component instances with a call in progress, so a guest
	// cannot be re-entered (the canonical ABI forbids it).
	active []bool
	// fuelMu guards inst.Fuel, which interrupt zeroes from another
	// goroutine; interrupted makes the loops' yield trap.
	fuelMu      sync.Mutex
	interrupted atomic.Bool
	// life is the store's part in its configuration's snapshot: the
	// initialisation being recorded, the snapshot it was restored from,
	// the next store to prepare (preinit.go, store_reuse.go,
	// store_prepare.go).
	life storelife.Life
}

type storeKey struct{}

func storeFrom(ctx context.Context) *Store {
	s, _ := ctx.Value(storeKey{}).(*Store)
	return s
}

// runtimeType maps a resource type as the component sees it to the type
// handles carry at run time (imported types become the host's types).
func (s *Store) runtimeType(t *wit.ResourceType) *wit.ResourceType {
	if h, ok := s.linked.resources[t]; ok {
		return h
	}
	return t
}

// Instance is an instantiated component.
type Instance struct {
	s *Store
}

// Store returns the instance's store.
func (i *Instance) Store() *Store { return i.s }

// Instantiate links c against l and instantiates it into s, which must be
// fresh. Start functions run under s's deadline.
func (l *Linker) Instantiate(ctx context.Context, c *Component, s *Store) (*Instance, error) {
	if s.comp != nil {
		return nil, errors.New("store already holds an instance; use a new Store per instance")
	}
	c, err := c.linkModules(ctx, l)
	if err != nil {
		return nil, err
	}
	li, err := l.link(c)
	if err != nil {
		return nil, err
	}
	p := c.plan
	if n := len(p.CoreInsts) + p.CompInsts; s.Limits.MaxInstances > 0 && n > s.Limits.MaxInstances {
		return nil, &LimitError{Limit: LimitInstances, Desired: uint64(n), Max: uint64(s.Limits.MaxInstances)}
	}
	if m := s.Limits.MaxMemoryBytes; m > 0 && p.MinMemory > m {
		return nil, &LimitError{Limit: LimitMemory, Desired: p.MinMemory, Max: m}
	}
	mods, err := c.modules(ctx, s.Limits.MaxTableElements)
	if err != nil {
		return nil, err
	}
	if s.Preinit != nil {
		err = l.instantiatePreinit(ctx, c, li, s, mods)
	} else {
		err = s.instantiate(ctx, c, li, mods, false, nil)
	}
	if err != nil {
		return nil, err
	}
	return &Instance{s: s}, nil
}

// instantiate makes s an instance of c from mods. With skipStart no start
// function runs; snap, when set, is then written into the fresh instances.
func (s *Store) instantiate(ctx context.Context, c *Component, li *linkedImports, mods []wazero.CompiledModule, skipStart bool, snap *storelife.Snapshot) error {
	s.prepare(c, li)
	s.inst.Core = make([]api.Module, len(c.plan.CoreInsts))
	s.inst.Mem = memory.NewLimiter(s.Limits.MaxMemoryBytes, c.engine.pool)

	ctx, cancel := s.callContext(ctx)
	defer cancel()
	ctx = experimental.WithMemoryAllocator(ctx, s.inst.Mem)
	ctx = experimental.WithImportResolver(ctx, s.resolve)

	var err error
	if s.inst.Host, err = c.engine.rt.InstantiateModule(ctx, c.host, c.engine.modConfig); err != nil {
		return fmt.Errorf("instantiating host functions: %w", err)
	}
	// Start functions are guest code and may call host functions that get
	// stuck: the steps run as a call, abandoned like one.
	if err := s.run(ctx, false, func() error { return s.instantiateSteps(ctx, mods, skipStart, snap) }); err != nil {
		if errors.Is(err, errAbandoned) {
			// The steps close the store when they stop.
			return s.classify(ctx, "instantiation", err)
		}
		return err
	}
	return nil
}

// prepare sets up the host-side state of a store about to hold an
// instance of c: handle tables, call state, per-function caches.
func (s *Store) prepare(c *Component, li *linkedImports) {
	p := c.plan
	s.comp, s.linked = c, li
	s.handles = handleCount{max: s.Limits.maxHandles()}
	s.tables = make([]handleTable, p.CompInsts)
	for i := range s.tables {
		s.tables[i].count = &s.handles
	}
	s.active = make([]bool, p.CompInsts)
	s.lifted = make([]*liftedRT, len(p.Funcs))
	s.lowers = make([]*loweredRT, len(p.HostFuncs))
}

// instantiateSteps instantiates the core instances and runs the start
// functions of the plan, in order, or restores snap instead of running
// them. On failure it closes what it made.
func (s *Store) instantiateSteps(ctx context.Context, mods []wazero.CompiledModule, skipStart bool, snap *storelife.Snapshot) error {
	p, rt := s.comp.plan, s.comp.engine.rt
	for _, st := range p.Steps {
		if err := ctx.Err(); err != nil {
			s.closeAll(context.WithoutCancel(ctx))
			return s.classify(ctx, "instantiation", err)
		}
		switch st.Kind {
		case plan.StepCoreInstance:
			m, err := rt.InstantiateModule(ctx, mods[st.Core], s.comp.engine.modConfig)
			if m != nil {
				s.inst.Core[st.Core] = m
			}
			if s.abandoned() {
				s.closeAll(context.WithoutCancel(ctx))
				return errAbandoned
			}
			if err != nil {
				s.closeAll(context.WithoutCancel(ctx))
				return s.classify(ctx, fmt.Sprintf("core instance %d", st.Core), fmt.Errorf("instantiating core instance %d: %w", st.Core, err))
			}
			ci := p.CoreInsts[st.Core]
			if ci.Interruptible {
				if g, ok := m.ExportedGlobal(coremod.FuelGlobal).(api.MutableGlobal); ok {
					s.addFuel(g)
				}
			}
			if ci.State.Start && !skipStart {
				if err := s.runCoreStart(ctx, st.Core, m); err != nil {
					return err
				}
			}
		case plan.StepStart:
			if skipStart {
				continue
			}
			if _, err := s.callFunc(ctx, st.Func, nil); err != nil {
				s.closeAll(context.WithoutCancel(ctx))
				return err
			}
		}
	}
	if snap != nil {
		if err := s.restore(ctx, snap); err != nil {
			s.closeAll(context.WithoutCancel(ctx))
			return err
		}
	}
	return nil
}

// runCoreStart runs a core instance's start function, which the plan
// moved to an export (coremod.ExportStart): as the start section would
// have, it runs before the next instance is made, and its failure is the
// instance's. On failure it closes the store's instances.
func (s *Store) runCoreStart(ctx context.Context, i int, m api.Module) error {
	f := m.ExportedFunction(coremod.StartExport)
	if f == nil {
		s.closeAll(context.WithoutCancel(ctx))
		return fmt.Errorf("core instance %d: start export missing", i)
	}
	_, err := f.Call(ctx)
	if s.abandoned() {
		s.closeAll(context.WithoutCancel(ctx))
		return errAbandoned
	}
	if err != nil {
		s.closeAll(context.WithoutCancel(ctx))
		return s.classify(ctx, fmt.Sprintf("core instance %d", i), fmt.Errorf("instantiating core instance %d: start function: %w", i, err))
	}
	return nil
}

// resolve is the wazero import resolver: module names were rewritten at
// compile time to name core instances and the host module directly.
func (s *Store) resolve(name string) api.Module {
	if name == plan.HostModule {
		return s.inst.Host
	}
	if len(name) < 2 || name[0] != '$' {
		return nil
	}
	i, err := strconv.Atoi(name[1:])
	if err != nil || i < 0 || i >= len(s.inst.Core) {
		return nil
	}
	return s.inst.Core[i]
}

// callContext applies the store's deadline, makes the store reachable from
// host functions, and arranges for the guest to be interrupted when the
// context ends. The returned func must be called when the call is over.
func (s *Store) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx = context.WithValue(ctx, storeKey{}, s)
	cancel := context.CancelFunc(func() {})
	if s.Limits.Deadline > 0 {
		ctx, cancel = context.WithTimeout(ctx, s.Limits.Deadline)
	}
	if ctx.Done() == nil {
		return ctx, cancel
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		s.interrupt()
	})
	return ctx, func() {
		if !stop() && s.poisoned() == nil {
			// The context ended just as the call finished: the call
			// stands, so the interruption must not trap the next one.
			<-fired
			s.interrupted.Store(false)
		}
		cancel()
	}
}

// interrupt makes the store's running loops trap at their next yield.
// Where the modules count their own iterations (coremod's rewrite), it
// zeroes their fuel so that yield comes at the next iteration; it may run
// on another goroutine while the guest runs, and the fuel is a plain word
// the compiled code reads each iteration (a lost race with the guest's own
// decrement only delays the trap by at most coremod.FuelRefill
// iterations). Where wazero's compiler counts them (loopYield), the count
// is the call's own, and the trap comes within coremod.FuelRefill
// iterations.
func (s *Store) interrupt() {
	s.fuelMu.Lock()
	defer s.fuelMu.Unlock()
	s.interrupted.Store(true)
	for _, g := range s.inst.Fuel {
		g.Set(0)
	}
}

// addFuel registers a new core instance's fuel global.
func (s *Store) addFuel(g api.MutableGlobal) {
	s.fuelMu.Lock()
	defer s.fuelMu.Unlock()
	s.inst.Fuel = append(s.inst.Fuel, g)
}

// Close releases the instance's memory. If a call was abandoned while a
// host function it made was stuck, the memory is released when that host
// function returns, not before: the guest may still be using it.
func (i *Instance) Close(ctx context.Context) error {
	i.s.closeWorker()
	if i.s.closeAbandoned(ctx) {
		return nil
	}
	defer func() {
		i.s.wantPrepared(ctx)
		i.s.life.Prep = nil
	}()
	if i.s.park(ctx) {
		return nil
	}
	return i.s.closeAll(ctx)
}

func (s *Store) closeAll(ctx context.Context) error {
	var errs []error
	for i := len(s.inst.Core) - 1; i >= 0; i-- {
		if s.inst.Core[i] != nil {
			errs = append(errs, s.inst.Core[i].Close(ctx))
			s.inst.Core[i] = nil
		}
	}
	if s.inst.Host != nil {
		errs = append(errs, s.inst.Host.Close(ctx))
		s.inst.Host = nil
	}
	s.inst.Funcs = nil
	s.poisonWith(errors.New("instance is closed"))
	return errors.Join(errs...)
}

// coreFunc returns the core function an item names. A host function (a
// lowered function or a resource built-in) is an ordinary core function to
// the canonical ABI, so it can be lifted or used as realloc, post-return or
// destructor like any guest export.
func (s *Store) coreFunc(it plan.CoreItem) (api.Function, error) {
	if it.Inst == plan.HostInst {
		f := s.inst.Host.ExportedFunction(plan.HostFuncName(it.Host))
		if f == nil {
			return nil, fmt.Errorf("host module has no function %d", it.Host)
		}
		return f, nil
	}
	m := s.inst.Core[it.Inst]
	if m == nil {
		return nil, fmt.Errorf("core instance %d is not instantiated yet", it.Inst)
	}
	f := m.ExportedFunction(it.Name)
	if f == nil {
		return nil, fmt.Errorf("core instance %d has no function export %q", it.Inst, it.Name)
	}
	return f, nil
}

// options builds canonical options for a lift or lower site, whose
// realloc is the function site names.
func (s *Store) options(o plan.CanonOpts, site storelife.SiteKey) (canon.Options, error) {
	opts := canon.Options{Encoding: o.Encoding, LiftBudget: s.Limits.liftBudget()}
	if o.Memory != nil {
		m := s.inst.Core[o.Memory.Inst]
		if m == nil {
			return opts, fmt.Errorf("memory of core instance %d used before it is instantiated", o.Memory.Inst)
		}
		mem := m.ExportedMemory(o.Memory.Name)
		if mem == nil {
			return opts, fmt.Errorf("core instance %d has no memory export %q", o.Memory.Inst, o.Memory.Name)
		}
		opts.Memory = mem
	}
	if o.Realloc != nil {
		f, err := s.siteFunc(site, *o.Realloc)
		if err != nil {
			return opts, fmt.Errorf("realloc: %w", err)
		}
		stack := make([]uint64, 4)
		opts.Realloc = func(ctx context.Context, oldPtr, oldSize, align, newSize uint32) (uint32, error) {
			stack[0], stack[1], stack[2], stack[3] = uint64(oldPtr), uint64(oldSize), uint64(align), uint64(newSize)
			if err := s.unguarded(func() error { return f.CallWithStack(ctx, stack) }); err != nil {
				return 0, &reallocFault{err}
			}
			return uint32(stack[0]), nil
		}
	}
	return opts, nil
}
