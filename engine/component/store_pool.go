package component

import (
	"context"
	"sync"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/component/internal/memory"
)

// Bounds of what an engine keeps of closed restored stores for reuse
// (store_reuse.go): their instances, and the memory images they are reset
// to. A few idle stores serve calls made one after another or a couple at
// a time; more would only hold memory.
const (
	// maxIdleStores bounds the idle stores an engine keeps.
	maxIdleStores = 4
	// maxIdleStoreBytes bounds their memories together.
	maxIdleStoreBytes = 32 << 20
	// maxImageBytes bounds one snapshot's memory image; a snapshot whose
	// memories are larger is never reused.
	maxImageBytes = 16 << 20
	// maxImagesBytes bounds the images an engine keeps, together: they
	// are Go heap, held while the engine serves calls; the ones used
	// longest ago make room for new ones.
	maxImagesBytes = 32 << 20
)

// idleStore is the wazero side of a closed store restored from snap, reset
// to snap's state: its instances, the fuel counters in them, and the
// limiter their memories were made with.
type idleStore struct {
	snap *snapshot
	core []api.Module
	host api.Module
	fuel []api.MutableGlobal
	mem  *memory.Limiter
	// funcs are the functions stores of these instances looked up.
	funcs siteFuncs
	// pristine says the worker prepared it and it was never called
	// (store_prepare.go).
	pristine bool
}

func (is *idleStore) close(ctx context.Context) {
	for i := len(is.core) - 1; i >= 0; i-- {
		if is.core[i] != nil {
			_ = is.core[i].Close(ctx) // nothing to report: the instance was idle
		}
	}
	if is.host != nil {
		_ = is.host.Close(ctx)
	}
}

// imageOwner is a component whose snapshot holds an image.
type imageOwner struct {
	c    *Component
	snap *snapshot
}

// storePool holds idle stores and accounts for the images they need. It
// also queues the stores the worker is to prepare: wanted, then one being
// prepared.
type storePool struct {
	mu         sync.Mutex
	idle       []*idleStore
	idleBytes  uint64
	images     []imageOwner
	imageBytes uint64
	// imageBound is maxImagesBytes, lowered by tests.
	imageBound uint64
	closed     bool
	wanted     []prepareJob
	preparing  *snapshot
	// prepared, on mu, is signalled when the worker ends a preparation.
	prepared sync.Cond
	// drains counts drains: a store prepared across one is dropped.
	drains uint64
	// reused counts stores made from closed ones, adopted those made from
	// prepared ones, trackedResets the resets that copied only the pages
	// written (tests assert the path).
	reused, adopted, trackedResets uint64
}

// countReset counts a parked store's reset.
func (p *storePool) countReset(tracked bool) {
	if !tracked {
		return
	}
	p.mu.Lock()
	p.trackedResets++
	p.mu.Unlock()
}

// room reports whether an idle store of n bytes of memory could be kept.
func (p *storePool) room(n uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closed && n <= maxIdleStoreBytes
}

// put keeps is, making room by taking out the longest idle stores, which
// it returns for the caller to close (with is itself when it cannot be
// kept). The stores of a configuration called often thus stay, whatever
// was called once.
func (p *storePool) put(is *idleStore) (evicted []*idleStore) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.putLocked(is)
}

func (p *storePool) putLocked(is *idleStore) (evicted []*idleStore) {
	n := is.snap.memory
	if p.closed || n > maxIdleStoreBytes {
		return []*idleStore{is}
	}
	p.usedLocked(is.snap)
	for len(p.idle) > 0 && (len(p.idle) >= maxIdleStores || p.idleBytes+n > maxIdleStoreBytes) {
		old := p.idle[0]
		p.idle = p.idle[1:]
		p.idleBytes -= old.snap.memory
		evicted = append(evicted, old)
	}
	p.idle = append(p.idle, is)
	p.idleBytes += n
	return evicted
}

// get takes an idle store of snap, or returns nil.
func (p *storePool) get(snap *snapshot) *idleStore {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		is := p.idle[i]
		if is.snap != snap {
			continue
		}
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		p.idleBytes -= snap.memory
		if is.pristine {
			p.adopted++
		} else {
			p.reused++
		}
		return is
	}
	return nil
}

// admitImage reports whether an image of n bytes for c's snap may be
// made, and if so counts it, making room by taking out the images used
// longest ago, which it returns for the caller to drop (dropImages). An
// engine thus keeps the images of the configurations it serves now,
// whatever it served before: a linker made per session leaves its
// snapshots behind, and their images must not starve the next.
func (p *storePool) admitImage(c *Component, snap *snapshot, n uint64) (bool, []imageOwner) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || n > maxImageBytes {
		return false, nil
	}
	if p.admittedLocked(snap) {
		return false, nil // another store of snap is making it
	}
	var evicted []imageOwner
	for len(p.images) > 0 && p.imageBytes+n > p.imageBound {
		old := p.images[0]
		p.images = p.images[1:]
		p.imageBytes -= old.snap.memory
		evicted = append(evicted, old)
	}
	p.images = append(p.images, imageOwner{c: c, snap: snap})
	p.imageBytes += n
	return true, evicted
}

// admittedLocked reports whether snap's image is still counted, with p.mu.
func (p *storePool) admittedLocked(snap *snapshot) bool {
	for _, o := range p.images {
		if o.snap == snap {
			return true
		}
	}
	return false
}

// usedLocked marks snap's image as the one used last, with p.mu.
func (p *storePool) usedLocked(snap *snapshot) {
	for i, o := range p.images {
		if o.snap == snap {
			copy(p.images[i:], p.images[i+1:])
			p.images[len(p.images)-1] = o
			return
		}
	}
}

// dropImages drops the images admitImage took out. Its stores then close
// as usual, and the next store restored from the snapshot makes the image
// again.
func dropImages(owners []imageOwner) {
	for _, o := range owners {
		o.c.mu.Lock()
		o.snap.image = nil
		o.c.mu.Unlock()
	}
}

// drain closes every idle store and drops every image and every wanted
// store, once the worker is done with the one it may be preparing (which
// it drops); with closing set, nothing is kept afterwards.
func (p *storePool) drain(ctx context.Context, closing bool) {
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
		is.close(ctx)
	}
	dropImages(images)
}
