package component

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/memory"
	"github.com/mur-go/mur/engine/component/internal/storelife"
)

// prepareJob is a store the worker is to prepare (storelife.Job): an
// instance of c's modules mods restored from snap, its memories capped at
// maxMem (the snapshot's configuration's cap).
type prepareJob struct {
	c      *Component
	snap   *storelife.Snapshot
	mods   []wazero.CompiledModule
	maxMem uint64
}

func (j *prepareJob) Snapshot() *storelife.Snapshot { return j.snap }

// Build instantiates j's modules into a store of no one's and restores
// j's snapshot into it, but remakes no handle: that is the adopting
// store's, from its own host (Store.adopt).
func (j *prepareJob) Build(ctx context.Context) (storelife.Instances, error) {
	c := j.c
	s := &Store{Limits: Limits{MaxMemoryBytes: j.maxMem}}
	s.comp = c
	s.inst.Core = make([]api.Module, len(c.plan.CoreInsts))
	s.inst.Mem = memory.NewLimiter(j.maxMem, c.engine.pool)
	ctx = experimental.WithMemoryAllocator(ctx, s.inst.Mem)
	ctx = experimental.WithImportResolver(ctx, s.resolve)
	var err error
	if s.inst.Host, err = c.engine.rt.InstantiateModule(ctx, c.host, c.engine.modConfig); err != nil {
		return storelife.Instances{}, fmt.Errorf("preparing a store: instantiating host functions: %w", err)
	}
	if err := s.instantiateSteps(ctx, j.mods, true, nil); err != nil {
		return storelife.Instances{}, fmt.Errorf("preparing a store: %w", err)
	}
	if err := s.restoreState(j.snap); err != nil {
		_ = s.closeAll(ctx) // the error that matters is the restore's
		return storelife.Instances{}, fmt.Errorf("preparing a store: %w", err)
	}
	return s.inst, nil
}

// wantPrepared asks the worker for a store of the snapshot s was restored
// from: when s adopted a prepared store, and when s is closed.
func (s *Store) wantPrepared(ctx context.Context) {
	if s.life.Prep == nil {
		return
	}
	e := s.comp.engine
	if e.stores.Want(ctx, s.life.Prep) {
		e.bg.kick()
	}
}
