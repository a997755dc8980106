package component

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/tetratelabs/wazero"

	"github.com/mur-go/mur/engine/component/internal/storelife"
)

// Preinit asks Instantiate to start a store from a snapshot of the state
// the component's initialisation (core start functions, component start
// functions) left behind, instead of running it again. The first store of
// a configuration initialises normally and is snapshotted; later ones are
// restored into fresh memories, so each store is still brand new: nothing
// a call does survives into another store. When the engine cannot show a
// snapshot would be faithful (see RATIONALE.md), stores of that
// configuration instantiate normally.
type Preinit struct {
	// Key names everything initialisation may observe through the host
	// functions Allow admits (for WASI: environment, arguments, preopens,
	// cwd). Stores share a snapshot only when their keys, linker,
	// component and memory and table limits are all equal.
	Key string
	// Allow reports whether initialisation may call the imported function
	// name of instance (its name without "@version") and still be
	// snapshotted. What such a function returns is baked into the
	// snapshot, so it must be fixed by Key or be acceptable to repeat.
	Allow func(instance, name string) bool
}

// snapKey is a configuration: stores share a snapshot only when these
// are all equal (and their component).
type snapKey struct {
	linker   *Linker
	key      string
	maxMem   uint64
	maxElems uint32
}

// initLeftovers says what host-side state initialisation left behind that
// a snapshot of guest state would reference and a restored store could not
// remake, or "": the handle tables must be exactly what the recorded,
// replayable calls and drops make.
func (s *Store) initLeftovers(rec *storelife.Record) string {
	if !s.tablesMatch(rec.Replay) {
		return "initialisation changed resource handles in a way the engine cannot remake"
	}
	if s.inst.Mem.Desired != 0 {
		return "initialisation hit the memory limit"
	}
	if s.poisoned() != nil || s.abandoned() {
		return "initialisation did not end cleanly"
	}
	return ""
}

// restore writes snap into s's fresh core instances and remakes the
// handles initialisation held, from s's own host.
func (s *Store) restore(ctx context.Context, snap *storelife.Snapshot) error {
	if err := s.restoreState(snap); err != nil {
		return err
	}
	return s.replayAll(ctx, snap)
}

// restoreState writes snap's memories and globals into s's fresh core
// instances.
func (s *Store) restoreState(snap *storelife.Snapshot) error {
	err := snap.Restore(s.inst.Core)
	if errors.Is(err, storelife.ErrGrowRefused) {
		return &LimitError{Limit: LimitMemory, Desired: snap.Memory, Max: s.Limits.MaxMemoryBytes}
	}
	return err
}

// replayAll remakes, from s's own host, the handles initialisation held.
func (s *Store) replayAll(ctx context.Context, snap *storelife.Snapshot) error {
	for _, r := range snap.Replay {
		if err := s.replay(ctx, r); err != nil {
			return fmt.Errorf("remaking the handles of the snapshot: %w", err)
		}
	}
	return nil
}

// instantiatePreinit instantiates s from its configuration's snapshot, or
// takes the snapshot when s is the configuration's first store.
func (l *Linker) instantiatePreinit(ctx context.Context, c *Component, li *linkedImports, s *Store, mods []wazero.CompiledModule) error {
	if why := c.plan.Snapshottable(); why != "" {
		return s.instantiate(ctx, c, li, mods, false, nil)
	}
	k := snapKey{linker: l, key: s.Preinit.Key, maxMem: s.Limits.MaxMemoryBytes, maxElems: s.Limits.MaxTableElements}
	snap, first := c.snaps.Role(k)
	if snap != nil {
		if m := s.Limits.MaxMemoryBytes; m > 0 && snap.Memory > m {
			return &LimitError{Limit: LimitMemory, Desired: snap.Memory, Max: m}
		}
		adopted, pristine, err := s.adopt(ctx, c, li, snap)
		if err != nil {
			return err
		}
		if !adopted {
			if err := s.instantiate(ctx, c, li, mods, true, snap); err != nil {
				return err
			}
		}
		s.life.Restored = snap
		// A no-op after a reused store (its reset needed the image); after
		// a prepared one, as after a restore, memory is as restored.
		c.engine.stores.KeepImage(snap, s.inst.Core)
		s.life.Prep = &prepareJob{c: c, snap: snap, mods: mods, maxMem: k.maxMem}
		if pristine {
			// Calls that follow one another closely leave the worker no
			// time between them: the next store is prepared during this
			// one's call.
			s.wantPrepared(ctx)
		}
		return nil
	}
	if !first {
		return s.instantiate(ctx, c, li, mods, false, nil)
	}
	rec := storelife.NewRecord(s.Preinit.Allow)
	s.life.Rec = rec
	if err := s.instantiate(ctx, c, li, mods, false, nil); err != nil {
		// The next store tries again: this failure may be its own (a
		// deadline, a cancellation), not the configuration's. The record
		// stays: an abandoned start function may still be running.
		c.snaps.Forget(k)
		return err
	}
	s.life.Rec = nil
	why := rec.Denied()
	if why == "" {
		why = s.initLeftovers(rec)
	}
	if why != "" {
		slog.DebugContext(ctx, "component: instantiating without a snapshot", "reason", why)
		c.snaps.Settle(k, nil)
		return nil
	}
	snap, err := l.snapshot(ctx, c, li, s, mods)
	if err != nil {
		slog.DebugContext(ctx, "component: instantiating without a snapshot", "reason", err.Error())
	}
	if snap != nil {
		snap.Replay = rec.Replay
	}
	if c.snaps.Settle(k, snap) {
		slog.DebugContext(ctx, "component: snapshot taken", "memory", snap.Memory, "bytes", snap.Bytes(), "replayed", len(rec.Replay))
	} else if snap != nil {
		slog.DebugContext(ctx, "component: instantiating without a snapshot", "reason", "snapshot too large", "bytes", snap.Bytes())
	}
	return nil
}

// snapshot captures s, just initialised, against a store of the same
// component that ran no start function.
func (l *Linker) snapshot(ctx context.Context, c *Component, li *linkedImports, s *Store, mods []wazero.CompiledModule) (*storelife.Snapshot, error) {
	base := &Store{Limits: s.Limits, Data: s.Data}
	if err := base.instantiate(ctx, c, li, mods, true, nil); err != nil {
		return nil, fmt.Errorf("instantiating the uninitialised base: %w", err)
	}
	defer base.closeAll(context.WithoutCancel(ctx))
	return storelife.Capture(c.plan, s.inst.Core, base.inst.Core)
}
