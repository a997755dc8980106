package storelife

import (
	"bytes"
	"context"
	"sync"

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
// The state a snapshot may differ in is memories and mutable globals:
// plan.Plan.Snapshottable refuses components whose code can change tables
// or drop segments, so those are as the modules made them in every
// instance. A reset writes back every mutable global and every memory
// from the image of a freshly restored store (only the pages written
// since the last reset, where the kernel can tell them: memory.Limiter's
// Reset), and the store zeroes its fuel counters. A memory cannot
// shrink, and wazero's size of it is the guest's memory.size, so a store
// whose memory grew is closed as usual; so is one that trapped, hit a
// deadline, was abandoned or is poisoned for any reason.

// Bounds of what an engine keeps of closed restored stores for reuse:
// their instances, and the memory images they are reset to. A few idle
// stores serve calls made one after another or a couple at a time; more
// would only hold memory, unless the process makes more calls at once
// (SetIdleBound).
const (
	// maxIdleStores bounds the idle stores an engine keeps by default.
	maxIdleStores = 4
	// maxIdleStoreBytes bounds their memories together, by default.
	maxIdleStoreBytes = 32 << 20
	// maxImageBytes bounds one snapshot's memory image; a snapshot whose
	// memories are larger is never reused.
	maxImageBytes = 16 << 20
	// maxImagesBytes bounds the images an engine keeps, together: they
	// are Go heap, held while the engine serves calls; the ones used
	// longest ago make room for new ones.
	maxImagesBytes = 32 << 20
)

// idleStore is the wazero side of a closed store restored from snap,
// reset to snap's state.
type idleStore struct {
	snap *Snapshot
	in   Instances
	// pristine says the worker prepared it and it was never called
	// (prepare.go).
	pristine bool
}

// Pool is an engine's idle stores, with the images they are reset to.
// It also queues the stores the worker is to prepare: wanted, then one
// being prepared.
type Pool struct {
	mu         sync.Mutex
	idle       []*idleStore
	idleBytes  uint64
	images     []*Snapshot
	imageBytes uint64
	// imageBound is maxImagesBytes, lowered by tests.
	imageBound uint64
	// idleStores and idleBytes bound the idle stores (maxIdleStores and
	// maxIdleStoreBytes unless SetIdleBound raised them).
	idleStores     int
	idleBytesBound uint64
	closed         bool
	wanted         []wanted
	preparing      *Snapshot
	// prepared, on mu, is signalled when the worker ends a preparation.
	prepared sync.Cond
	// drains counts drains: a store prepared across one is dropped.
	drains uint64
	// reused counts stores made from closed ones, adopted those made from
	// prepared ones, trackedResets the resets that copied only the pages
	// written.
	reused, adopted, trackedResets uint64
}

// NewPool returns an empty pool.
func NewPool() *Pool {
	p := &Pool{imageBound: maxImagesBytes, idleStores: maxIdleStores, idleBytesBound: maxIdleStoreBytes}
	p.prepared.L = &p.mu
	return p
}

// Stats are counts of what a pool did and holds: stores made from closed
// ones and from prepared ones, resets that copied only the pages written,
// idle stores and stores wanted.
type Stats struct {
	Reused, Adopted, TrackedResets uint64
	Idle, Wanted                   int
}

// Stats reports the pool's counts.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{Reused: p.reused, Adopted: p.adopted, TrackedResets: p.trackedResets, Idle: len(p.idle), Wanted: len(p.wanted)}
}

// SetIdleBound makes the pool keep up to n idle stores (never fewer than
// the default), their memories bounded in proportion: for a process
// that makes n calls at once, each finding a store of its own.
func (p *Pool) SetIdleBound(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n > maxIdleStores {
		p.idleStores = n
		p.idleBytesBound = uint64(n) * (maxIdleStoreBytes / maxIdleStores)
	}
}

// SetImageBound makes the pool keep at most n bytes of memory images.
func (p *Pool) SetImageBound(n uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.imageBound = n
}

// Reset resets in, the instances of a store restored from snap whose
// calls ended cleanly, to snap's state: memories and mutable globals
// (the store zeroes its fuel counters). It reports false when they cannot
// serve again: no image to reset to, no room for them, a memory that grew
// or a global that is not mutable; the store is then closed as usual.
func (p *Pool) Reset(in *Instances, snap *Snapshot) bool {
	snap.mu.Lock()
	image := snap.image
	snap.mu.Unlock()
	if image == nil || !p.room(snap.Memory) {
		return false
	}
	mems := make([][]byte, len(in.Core))
	for i, m := range in.Core {
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
	for i, m := range in.Core {
		if mems[i] != nil && !in.Mem.Reset(mems[i], image[i]) {
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
	p.countReset(tracked)
	return true
}

// countReset counts a parked store's reset.
func (p *Pool) countReset(tracked bool) {
	if !tracked {
		return
	}
	p.mu.Lock()
	p.trackedResets++
	p.mu.Unlock()
}

// room reports whether an idle store of n bytes of memory could be kept.
func (p *Pool) room(n uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closed && n <= p.idleBytesBound
}

// Park keeps in, reset to snap (Reset), for the next store of snap,
// making room by closing the longest idle stores (or in itself when it
// cannot be kept). The stores of a configuration called often thus stay,
// whatever was called once.
func (p *Pool) Park(ctx context.Context, in Instances, snap *Snapshot) {
	p.mu.Lock()
	evicted := p.putLocked(&idleStore{snap: snap, in: in})
	p.mu.Unlock()
	for _, old := range evicted {
		old.in.close(ctx)
	}
}

// putLocked keeps is, with p.mu, and returns the idle stores taken out to
// make room, for the caller to close (with is itself when it cannot be
// kept).
func (p *Pool) putLocked(is *idleStore) (evicted []*idleStore) {
	n := is.snap.Memory
	if p.closed || n > p.idleBytesBound {
		return []*idleStore{is}
	}
	p.usedLocked(is.snap)
	for len(p.idle) > 0 && (len(p.idle) >= p.idleStores || p.idleBytes+n > p.idleBytesBound) {
		old := p.idle[0]
		p.idle = p.idle[1:]
		p.idleBytes -= old.snap.Memory
		evicted = append(evicted, old)
	}
	p.idle = append(p.idle, is)
	p.idleBytes += n
	return evicted
}

// Get takes the instances of an idle store of snap; pristine says the
// worker prepared them and they were never called. ok is false when the
// pool has none.
func (p *Pool) Get(snap *Snapshot) (in Instances, pristine, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		is := p.idle[i]
		if is.snap != snap {
			continue
		}
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		p.idleBytes -= snap.Memory
		if is.pristine {
			p.adopted++
		} else {
			p.reused++
		}
		return is.in, is.pristine, true
	}
	return Instances{}, false, false
}

// KeepImage records, once per snapshot, the memories of core, the
// instances of a store just restored from snap and not yet called: what
// a reused store is reset to. snap's lock is not held while the pool
// makes room, which takes the locks of the snapshots whose images it
// drops.
func (p *Pool) KeepImage(snap *Snapshot, core []api.Module) {
	snap.mu.Lock()
	made := snap.image != nil
	snap.mu.Unlock()
	if made {
		return
	}
	mems := make([]api.Memory, len(core))
	for i, m := range core {
		if snap.insts[i].memSize == 0 {
			continue
		}
		if mems[i] = m.ExportedMemory(coremod.StateMemory); mems[i] == nil {
			return
		}
	}
	// Admitted only once it can be made, so the engine's image bytes
	// count only images that exist.
	ok, evicted := p.admitImage(snap)
	dropImages(evicted)
	if !ok {
		return
	}
	image := make([][]byte, len(core))
	for i, mem := range mems {
		if mem != nil {
			b, _ := mem.Read(0, mem.Size())
			image[i] = bytes.Clone(b)
		}
	}
	// Kept only if it is still counted: another store's admission may
	// have taken it out meanwhile.
	snap.mu.Lock()
	p.mu.Lock()
	if p.admittedLocked(snap) {
		snap.image = image
	}
	p.mu.Unlock()
	snap.mu.Unlock()
}

// admitImage reports whether an image of snap may be made, and if so
// counts it, making room by taking out the images used longest ago, which
// it returns for the caller to drop (dropImages). An engine thus keeps the
// images of the configurations it serves now, whatever it served before:
// a linker made per session leaves its snapshots behind, and their images
// must not starve the next.
func (p *Pool) admitImage(snap *Snapshot) (bool, []*Snapshot) {
	n := snap.Memory
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || n > maxImageBytes {
		return false, nil
	}
	if p.admittedLocked(snap) {
		return false, nil // another store of snap is making it
	}
	var evicted []*Snapshot
	for len(p.images) > 0 && p.imageBytes+n > p.imageBound {
		old := p.images[0]
		p.images = p.images[1:]
		p.imageBytes -= old.Memory
		evicted = append(evicted, old)
	}
	p.images = append(p.images, snap)
	p.imageBytes += n
	return true, evicted
}

// admittedLocked reports whether snap's image is still counted, with p.mu.
func (p *Pool) admittedLocked(snap *Snapshot) bool {
	for _, s := range p.images {
		if s == snap {
			return true
		}
	}
	return false
}

// usedLocked marks snap's image as the one used last, with p.mu.
func (p *Pool) usedLocked(snap *Snapshot) {
	for i, s := range p.images {
		if s == snap {
			copy(p.images[i:], p.images[i+1:])
			p.images[len(p.images)-1] = s
			return
		}
	}
}

// dropImages drops the images admitImage took out. Their stores then
// close as usual, and the next store restored from the snapshot makes the
// image again.
func dropImages(snaps []*Snapshot) {
	for _, s := range snaps {
		s.mu.Lock()
		s.image = nil
		s.mu.Unlock()
	}
}

// Drain closes every idle store and drops every image and every wanted
// store, once the worker is done with the one it may be preparing (which
// it drops); with closing set, nothing is kept afterwards.
func (p *Pool) Drain(ctx context.Context, closing bool) {
	p.mu.Lock()
	p.closed = p.closed || closing
	p.drains++
	p.wanted = nil
	for p.preparing != nil {
		p.prepared.Wait()
	}
	idle, images := p.idle, p.images
	p.idle, p.idleBytes, p.images, p.imageBytes = nil, 0, nil, 0
	p.mu.Unlock()
	for _, is := range idle {
		is.in.close(ctx)
	}
	dropImages(images)
}
