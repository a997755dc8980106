package component

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/memory"
)

// A store restored from a snapshot spends most of its fixed cost in
// wazero's instantiation (element and data segments) and in writing the
// snapshot, none of which depends on the store: no guest code runs and
// nothing host-side is bound until the handles are remade. So when such a
// store closes, whether its instances are reused or not, the engine's
// worker makes one store of that snapshot ahead, pristine, and parks it
// with the idle stores; the next store of the snapshot adopts it like a
// reused one (store_reuse.go), without a reset since it was never called,
// and asks for the next one at once: calls that follow one another
// leave no gap, so it is made during the call.
// It is made from nothing any store ran: fresh instances of the modules
// and the snapshot's own runs, with its own memory limiter set to the
// snapshot's memory cap. One per snapshot at most, under the idle stores'
// bounds; dropped by ReleaseIdle and Engine.Close. A failed preparation
// only means the next store instantiates as usual.

// prepareJob is a store the worker is to prepare: an instance of c's
// modules mods restored from snap, its memories capped at maxMem (the
// snapshot's configuration's cap).
type prepareJob struct {
	ctx    context.Context
	c      *Component
	snap   *snapshot
	mods   []wazero.CompiledModule
	maxMem uint64
}

// wantPrepared asks the worker for a store of the snapshot s was restored
// from: when s adopted a prepared store, and when s is closed.
func (s *Store) wantPrepared(ctx context.Context) {
	if s.prep == nil {
		return
	}
	j := *s.prep
	j.ctx = context.WithoutCancel(ctx)
	e := j.c.engine
	if e.stores.want(j) {
		e.bg.kick()
	}
}

// want queues j unless a store of its snapshot is idle, wanted or being
// prepared already, or could not be kept.
func (p *storePool) want(j prepareJob) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || j.snap.memory > maxIdleStoreBytes || p.preparing == j.snap {
		return false
	}
	for _, is := range p.idle {
		if is.snap == j.snap {
			return false
		}
	}
	for _, w := range p.wanted {
		if w.snap == j.snap {
			return false
		}
	}
	p.wanted = append(p.wanted, j)
	return true
}

// prepareNext prepares one wanted store, for the worker, and reports
// whether one was wanted.
func (p *storePool) prepareNext() bool {
	p.mu.Lock()
	if len(p.wanted) == 0 {
		p.mu.Unlock()
		return false
	}
	j := p.wanted[0]
	p.wanted = p.wanted[1:]
	p.preparing = j.snap
	drains := p.drains
	p.mu.Unlock()

	is, err := j.build()
	var drop []*idleStore
	p.mu.Lock()
	switch {
	case err != nil:
		// Nothing to report: the next store instantiates as usual.
	case p.closed || p.drains != drains:
		drop = []*idleStore{is}
	default:
		drop = p.putLocked(is)
	}
	p.mu.Unlock()
	// Closed before the preparation is over, so that a drain waiting for
	// it finds their mappings released.
	for _, old := range drop {
		old.close(j.ctx)
	}
	p.mu.Lock()
	p.preparing = nil
	p.prepared.Broadcast()
	p.mu.Unlock()
	return true
}

// build instantiates j's modules into a store of no one's and restores
// j's snapshot into it, but remakes no handle: that is the adopting
// store's, from its own host (Store.adopt).
func (j prepareJob) build() (*idleStore, error) {
	c := j.c
	s := &Store{Limits: Limits{MaxMemoryBytes: j.maxMem}}
	s.comp = c
	s.core = make([]api.Module, len(c.plan.CoreInsts))
	s.mem = memory.NewLimiter(j.maxMem, c.engine.pool)
	ctx := experimental.WithMemoryAllocator(j.ctx, s.mem)
	ctx = experimental.WithImportResolver(ctx, s.resolve)
	var err error
	if s.host, err = c.engine.rt.InstantiateModule(ctx, c.host, c.engine.modConfig); err != nil {
		return nil, fmt.Errorf("preparing a store: instantiating host functions: %w", err)
	}
	if err := s.instantiateSteps(ctx, j.mods, true, nil); err != nil {
		return nil, fmt.Errorf("preparing a store: %w", err)
	}
	if err := s.restoreState(j.snap); err != nil {
		_ = s.closeAll(ctx) // the error that matters is the restore's
		return nil, fmt.Errorf("preparing a store: %w", err)
	}
	return &idleStore{snap: j.snap, core: s.core, host: s.host, fuel: s.fuel, mem: s.mem, pristine: true}, nil
}

// settle waits until the worker has prepared every wanted store.
func (p *storePool) settle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.wanted) > 0 || p.preparing != nil {
		p.prepared.Wait()
	}
}
