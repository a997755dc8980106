package component

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/plan"
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

// Snapshots live as long as their component, while the memory they copy
// lived only as long as a call: without bounds a guest that fills its
// memory at start-up would make the host keep it for good, per
// configuration. Past these, stores instantiate normally.
const (
	// maxSnapshots bounds the configurations one component keeps.
	maxSnapshots = 64
	// maxSnapshotBytes bounds the memory runs of one snapshot; Go guests
	// need under 64 KiB.
	maxSnapshotBytes = 8 << 20
	// maxComponentSnapshotBytes bounds them for all of a component's.
	maxComponentSnapshotBytes = 64 << 20
)

type snapKey struct {
	linker   *Linker
	key      string
	maxMem   uint64
	maxElems uint32
}

type snapState uint8

const (
	snapPending snapState = iota + 1 // the first store is initialising
	snapFailed                       // not snapshottable: always initialise
	snapReady
)

type snapEntry struct {
	state snapState
	snap  *snapshot
}

// snapshot is the post-initialisation state of every core instance, as
// differences from a fresh instance that ran no start function.
type snapshot struct {
	insts  []instState
	replay []replayCall
	// memory is the total size of all memories, checked against the cap.
	memory uint64
	// image is every instance's whole memory as restored, which a closed
	// store's instances are reset to for reuse; nil until a store is
	// restored, and again once the engine drops it as idle. Guarded by
	// the component's mu; never changed once set.
	image [][]byte
}

type instState struct {
	memSize uint64 // bytes; 0 when the instance defines no memory
	runs    []memRun
	globals []globalValue
}

type memRun struct {
	off  uint32
	data []byte
}

type globalValue struct {
	name string
	v    uint64
}

// initRecord watches an initialisation that may be snapshotted.
type initRecord struct {
	allow func(instance, name string) bool
	// denied says why the snapshot would not be faithful.
	denied string
	// replay are the handle-making calls and host-resource drops a
	// restored store repeats (replay.go).
	replay []replayCall
}

// observe notes a call into the host; one Allow does not admit denies the
// snapshot.
func (r *initRecord) observe(fn *plan.Func) {
	if !fn.Imported || r.denied != "" {
		return
	}
	inst, _, _ := strings.Cut(fn.Instance, "@")
	if r.allow == nil || !r.allow(inst, fn.Name) {
		r.denied = "initialisation called " + fn.String()
	}
}

// preinitRole decides what this store does: restore the snapshot, take
// it (the first store of a configuration) or initialise normally.
func (c *Component) preinitRole(k snapKey) (*snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.snaps == nil {
		c.snaps = map[snapKey]*snapEntry{}
	}
	e, ok := c.snaps[k]
	if !ok {
		if len(c.snaps) >= maxSnapshots {
			return nil, false
		}
		c.snaps[k] = &snapEntry{state: snapPending}
		return nil, true
	}
	if e.state == snapReady {
		return e.snap, false
	}
	return nil, false
}

// settle records the outcome of a configuration's first store: snap, or
// nil when there is none. It reports whether snap was kept.
func (c *Component) settle(k snapKey, snap *snapshot) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.snaps[k]
	if snap == nil {
		e.state = snapFailed
		return false
	}
	n := snap.bytes()
	if n > maxSnapshotBytes || c.snapBytes+n > maxComponentSnapshotBytes {
		e.state = snapFailed
		return false
	}
	c.snapBytes += n
	e.state, e.snap = snapReady, snap
	return true
}

// initLeftovers says what host-side state initialisation left behind that
// a snapshot of guest state would reference and a restored store could not
// remake, or "": the handle tables must be exactly what the recorded,
// replayable calls and drops make.
func (s *Store) initLeftovers(rec *initRecord) string {
	if !rec.tablesMatch(s) {
		return "initialisation changed resource handles in a way the engine cannot remake"
	}
	if s.mem.Desired != 0 {
		return "initialisation hit the memory limit"
	}
	if s.poisoned() != nil || s.abandoned() {
		return "initialisation did not end cleanly"
	}
	return ""
}

// capture reads the state of s, a store that has just initialised, as
// differences from base, a store of the same component that ran no start
// function.
func capture(s, base *Store) (*snapshot, error) {
	snap := &snapshot{insts: make([]instState, len(s.core))}
	for i, m := range s.core {
		ci := s.comp.plan.CoreInsts[i]
		st := &snap.insts[i]
		if ci.State.Memory {
			mem, bmem := m.ExportedMemory(coremod.StateMemory), base.core[i].ExportedMemory(coremod.StateMemory)
			if mem == nil || bmem == nil {
				return nil, fmt.Errorf("core instance %d: memory export missing", i)
			}
			cur, _ := mem.Read(0, mem.Size())
			old, _ := bmem.Read(0, bmem.Size())
			st.memSize = uint64(len(cur))
			st.runs = diffRuns(cur, old)
			snap.memory += st.memSize
		}
		for _, name := range ci.State.Globals {
			g := m.ExportedGlobal(name)
			if g == nil {
				return nil, fmt.Errorf("core instance %d: global export %s missing", i, name)
			}
			st.globals = append(st.globals, globalValue{name: name, v: g.Get()})
		}
	}
	return snap, nil
}

// runChunk is the granularity of memory differences: runs closer than
// this are merged, which keeps the run count (and restore's calls) low.
const runChunk = 64

// diffRuns returns the runs of cur that differ from old (read as zero past
// its end), copied.
func diffRuns(cur, old []byte) []memRun {
	var runs []memRun
	start := -1
	flush := func(end int) {
		runs = append(runs, memRun{off: uint32(start), data: append([]byte(nil), cur[start:end]...)})
		start = -1
	}
	for off := 0; off < len(cur); off += runChunk {
		same := sameChunk(cur[off:min(off+runChunk, len(cur))], old[min(off, len(old)):min(off+runChunk, len(old))])
		switch {
		case !same && start < 0:
			start = off
		case same && start >= 0:
			flush(off)
		}
	}
	if start >= 0 {
		flush(len(cur))
	}
	return runs
}

// sameChunk compares a chunk of memory with its old contents, which may be
// shorter (the memory grew; the rest was zero).
func sameChunk(cur, old []byte) bool {
	if string(cur[:len(old)]) != string(old) {
		return false
	}
	for _, c := range cur[len(old):] {
		if c != 0 {
			return false
		}
	}
	return true
}

// restore writes snap into s's fresh core instances and remakes the
// handles initialisation held, from s's own host.
func (s *Store) restore(ctx context.Context, snap *snapshot) error {
	if err := s.restoreState(snap); err != nil {
		return err
	}
	return s.replayAll(ctx, snap)
}

// restoreState writes snap's memories and globals into s's fresh core
// instances.
func (s *Store) restoreState(snap *snapshot) error {
	for i, m := range s.core {
		st := &snap.insts[i]
		if st.memSize > 0 {
			mem := m.ExportedMemory(coremod.StateMemory)
			if mem == nil {
				return fmt.Errorf("core instance %d: memory export missing", i)
			}
			if have := uint64(mem.Size()); have < st.memSize {
				if _, ok := mem.Grow(uint32((st.memSize - have) >> 16)); !ok {
					return &LimitError{Limit: LimitMemory, Desired: snap.memory, Max: s.Limits.MaxMemoryBytes}
				}
			}
			for _, r := range st.runs {
				if !mem.Write(r.off, r.data) {
					return fmt.Errorf("core instance %d: snapshot run at %#x does not fit its memory", i, r.off)
				}
			}
		}
		for _, g := range st.globals {
			mg, ok := m.ExportedGlobal(g.name).(api.MutableGlobal)
			if !ok {
				return fmt.Errorf("core instance %d: global %s is not mutable", i, g.name)
			}
			mg.Set(g.v)
		}
	}
	return nil
}

// replayAll remakes, from s's own host, the handles initialisation held.
func (s *Store) replayAll(ctx context.Context, snap *snapshot) error {
	for _, r := range snap.replay {
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
	snap, first := c.preinitRole(k)
	if snap != nil {
		if m := s.Limits.MaxMemoryBytes; m > 0 && snap.memory > m {
			return &LimitError{Limit: LimitMemory, Desired: snap.memory, Max: m}
		}
		is, err := s.adopt(ctx, c, li, snap)
		if err != nil {
			return err
		}
		if is == nil {
			if err := s.instantiate(ctx, c, li, mods, true, snap); err != nil {
				return err
			}
		}
		s.restored = snap
		// A no-op after a reused store (its reset needed the image); after
		// a prepared one, as after a restore, memory is as restored.
		c.keepImage(s, snap)
		s.prep = &prepareJob{c: c, snap: snap, mods: mods, maxMem: k.maxMem}
		if is != nil && is.pristine {
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
	rec := &initRecord{allow: s.Preinit.Allow}
	s.initRec = rec
	if err := s.instantiate(ctx, c, li, mods, false, nil); err != nil {
		// The next store tries again: this failure may be its own (a
		// deadline, a cancellation), not the configuration's. initRec
		// stays: an abandoned start function may still be running.
		c.forget(k)
		return err
	}
	s.initRec = nil
	why := rec.denied
	if why == "" {
		why = s.initLeftovers(rec)
	}
	if why != "" {
		slog.DebugContext(ctx, "component: instantiating without a snapshot", "reason", why)
		c.settle(k, nil)
		return nil
	}
	snap, err := l.snapshot(ctx, c, li, s, mods)
	if err != nil {
		slog.DebugContext(ctx, "component: instantiating without a snapshot", "reason", err.Error())
	}
	if snap != nil {
		snap.replay = rec.replay
	}
	if c.settle(k, snap) {
		slog.DebugContext(ctx, "component: snapshot taken", "memory", snap.memory, "bytes", snap.bytes(), "replayed", len(rec.replay))
	} else if snap != nil {
		slog.DebugContext(ctx, "component: instantiating without a snapshot", "reason", "snapshot too large", "bytes", snap.bytes())
	}
	return nil
}

// snapshot captures s, just initialised, against a store of the same
// component that ran no start function.
func (l *Linker) snapshot(ctx context.Context, c *Component, li *linkedImports, s *Store, mods []wazero.CompiledModule) (*snapshot, error) {
	base := &Store{Limits: s.Limits, Data: s.Data}
	if err := base.instantiate(ctx, c, li, mods, true, nil); err != nil {
		return nil, fmt.Errorf("instantiating the uninitialised base: %w", err)
	}
	defer base.closeAll(context.WithoutCancel(ctx))
	return capture(s, base)
}

// bytes is the heap the snapshot holds in memory runs.
func (snap *snapshot) bytes() int {
	n := 0
	for _, st := range snap.insts {
		for _, r := range st.runs {
			n += len(r.data)
		}
	}
	return n
}

func (c *Component) forget(k snapKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.snaps, k)
}
