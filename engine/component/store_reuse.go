package component

import (
	"context"
	"errors"
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/storelife"
)

// A store restored from a snapshot leaves its instances, reset to the
// snapshot, to the next store of it (storelife.Pool says when and how);
// the host side is never reused: the next store has its own handle
// tables, its own Data, and remakes the snapshot's handles from its own
// host.

// park resets s's instances to its snapshot and hands them to the engine
// for the next store of the configuration. It reports false, touching
// nothing, when they cannot serve again; the caller then closes s.
func (s *Store) park(ctx context.Context) bool {
	snap := s.life.Restored
	if snap == nil || s.inst.Host == nil || s.poisoned() != nil || s.abandoned() || s.abandon.stuck != nil {
		return false
	}
	pool := s.comp.engine.stores
	if !pool.Reset(&s.inst, snap) {
		return false
	}
	s.fuelMu.Lock()
	for _, g := range s.inst.Fuel {
		g.Set(0)
	}
	in := s.inst
	s.inst = storelife.Instances{}
	s.fuelMu.Unlock()
	s.poisonWith(errors.New("instance is closed"))
	pool.Park(ctx, in, snap)
	return true
}

// adopt makes s a store of c from an idle store of snap, if the engine has
// one: adopted is false when it has none, pristine says the worker
// prepared it; on failure to remake the store's own handles s is closed.
func (s *Store) adopt(ctx context.Context, c *Component, li *linkedImports, snap *storelife.Snapshot) (adopted, pristine bool, err error) {
	in, pristine, ok := c.engine.stores.Get(snap)
	if !ok {
		return false, false, nil
	}
	s.prepare(c, li)
	s.inst = in
	s.inst.Mem.Desired = 0
	s.life.Restored = snap
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	// The handles are remade by host calls, which may get stuck like any:
	// they run as a call, abandoned like one.
	err = s.run(ctx, false, func() error {
		if err := s.replayAll(ctx, snap); err != nil {
			s.closeAll(context.WithoutCancel(ctx))
			return err
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, errAbandoned) {
			return true, pristine, s.classify(ctx, "instantiation", err)
		}
		return true, pristine, fmt.Errorf("reusing a restored store: %w", err)
	}
	return true, pristine, nil
}
