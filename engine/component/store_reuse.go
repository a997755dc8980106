package component

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/component/internal/coremod"
)

// A store restored from a snapshot is, on the wazero side, instances of
// the configuration's modules holding the snapshot's memories and globals.
// When such a store is closed after calls that ended cleanly, its
// instances are reset to exactly that state and serve the next store of
// the configuration, which then skips instantiation altogether (wazero's
// data and element segments, module set-up, and unmapping at Close).
//
// The state a snapshot may differ in is memories and mutable globals
// (preinit.go): Plan.Snapshottable refuses components whose code can
// change tables or drop segments, so those are as the modules made them
// in every instance. A reset writes back every mutable global and every
// memory from the image of a freshly restored store (only the pages
// written since the last reset, where the kernel can tell them:
// store_reset.go), and zeroes the fuel counters. A memory cannot shrink,
// and wazero's size of it is the guest's memory.size, so a store whose
// memory grew is closed as usual; so is one that trapped, hit a
// deadline, was abandoned or is poisoned for any reason.

// park resets s's instances to its snapshot and hands them to the engine
// for the next store of the configuration. It reports false, touching
// nothing, when they cannot serve again; the caller then closes s.
func (s *Store) park(ctx context.Context) bool {
	snap := s.restored
	if snap == nil || s.host == nil || s.poisoned() != nil || s.abandoned() || s.abandon.stuck != nil {
		return false
	}
	pool := &s.comp.engine.stores
	s.comp.mu.Lock()
	image := snap.image
	s.comp.mu.Unlock()
	if image == nil || !pool.room(snap.memory) {
		return false
	}
	mems := make([][]byte, len(s.core))
	for i, m := range s.core {
		if snap.insts[i].memSize == 0 {
			continue
		}
		mem := m.ExportedMemory(coremod.StateMemory)
		if mem == nil || uint64(mem.Size()) != snap.insts[i].memSize {
			return false
		}
		mems[i], _ = mem.Read(0, mem.Size()) // a view of the memory itself
	}
	tracked := true
	for i, m := range s.core {
		if mems[i] != nil && !s.mem.Reset(mems[i], image[i]) {
			tracked = false
		}
		for _, g := range snap.insts[i].globals {
			mg, ok := m.ExportedGlobal(g.name).(api.MutableGlobal)
			if !ok {
				return false
			}
			mg.Set(g.v)
		}
	}
	s.fuelMu.Lock()
	fuel := s.fuel
	s.fuel = nil
	for _, g := range fuel {
		g.Set(0)
	}
	s.fuelMu.Unlock()
	pool.countReset(tracked)
	is := &idleStore{snap: snap, core: s.core, host: s.host, fuel: fuel, mem: s.mem, funcs: s.funcs}
	s.core, s.host, s.funcs = nil, nil, nil
	s.poisonWith(errors.New("instance is closed"))
	for _, old := range pool.put(is) {
		old.close(ctx)
	}
	return true
}

// adopt makes s a store of c from an idle store of snap, if the engine has
// one: it returns nil when it has none, and otherwise the idle store and
// whether the store's own handles could be remade (on failure s is
// closed).
func (s *Store) adopt(ctx context.Context, c *Component, li *linkedImports, snap *snapshot) (*idleStore, error) {
	is := c.engine.stores.get(snap)
	if is == nil {
		return nil, nil
	}
	s.prepare(c, li)
	s.core, s.host, s.fuel, s.mem, s.funcs = is.core, is.host, is.fuel, is.mem, is.funcs
	s.mem.Desired = 0
	s.restored = snap
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	// The handles are remade by host calls, which may get stuck like any:
	// they run as a call, abandoned like one.
	err := s.run(ctx, false, func() error {
		if err := s.replayAll(ctx, snap); err != nil {
			s.closeAll(context.WithoutCancel(ctx))
			return err
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, errAbandoned) {
			return is, s.classify(ctx, "instantiation", err)
		}
		return is, fmt.Errorf("reusing a restored store: %w", err)
	}
	return is, nil
}

// keepImage records, once per snapshot, the memories of s, a store just
// restored from snap and not yet called: what a reused store is reset to.
// c.mu is not held while the engine makes room, which takes the locks of
// the components whose images it drops.
func (c *Component) keepImage(s *Store, snap *snapshot) {
	c.mu.Lock()
	made := snap.image != nil
	c.mu.Unlock()
	if made {
		return
	}
	mems := make([]api.Memory, len(s.core))
	for i, m := range s.core {
		if snap.insts[i].memSize == 0 {
			continue
		}
		if mems[i] = m.ExportedMemory(coremod.StateMemory); mems[i] == nil {
			return
		}
	}
	// Admitted only once it can be made, so the engine's image bytes
	// count only images that exist.
	pool := &c.engine.stores
	ok, evicted := pool.admitImage(c, snap, snap.memory)
	dropImages(evicted)
	if !ok {
		return
	}
	image := make([][]byte, len(s.core))
	for i, mem := range mems {
		if mem != nil {
			b, _ := mem.Read(0, mem.Size())
			image[i] = bytes.Clone(b)
		}
	}
	// Kept only if it is still counted: another store's admission may
	// have taken it out meanwhile.
	c.mu.Lock()
	pool.mu.Lock()
	if pool.admittedLocked(snap) {
		snap.image = image
	}
	pool.mu.Unlock()
	c.mu.Unlock()
}
