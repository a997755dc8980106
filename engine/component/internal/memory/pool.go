package memory

import "sync"

// A store's memories are mapped when it is instantiated and unmapped when
// it is closed, and every tool or driver call makes a store. Unmapping and
// then faulting fresh pages in again (wazero copies a Go guest's 1.5 MB of
// data segments into them) cost more than the instantiation around them,
// so the engine keeps a few released mappings, cleared, for the next
// store. Clearing is itself a large part of a call's fixed cost, so the
// engine's background worker does it after the store is closed; only a
// cleared mapping is ever handed out. Bounded in count and committed
// bytes, those waiting to be cleared included: a burst of calls leaves no
// more than that behind, and Engine.ReleaseIdle gives it all back.
const (
	// maxPooledMappings bounds the idle mappings an engine keeps.
	maxPooledMappings = 8
	// maxPooledBytes bounds their committed bytes together.
	maxPooledBytes = 64 << 20
	// maxPooledMapping is the largest committed size pooled; a memory
	// that grew past it is unmapped.
	maxPooledMapping = 16 << 20
)

// reusableMapping is a memory's backing that can serve another memory of
// the same reservation once cleared.
type reusableMapping interface {
	// reserved is the size of the reservation, committed the part of it
	// that is readable and writable.
	reserved() uint64
	committed() uint64
	// zero makes the committed part read as zeros.
	zero()
	// unmap gives the reservation back to the OS.
	unmap()
}

// Pool holds released mappings for an engine: dirty ones wait for the
// worker, which clears them one at a time and moves them to idle.
type Pool struct {
	// kick wakes the engine's worker when a mapping is released.
	kick func()
	// pages finds the pages written to the mappings the pool makes, nil
	// when the kernel cannot (reset.go).
	pages *dirtyPages

	mu sync.Mutex
	// cleared, on mu, is signalled when the worker has cleared a mapping.
	cleared  sync.Cond
	idle     []reusableMapping
	dirty    []reusableMapping
	clearing reusableMapping
	// bytes are the committed bytes of idle, dirty and clearing.
	bytes  uint64
	closed bool
	// reused counts mappings handed out again, zeroed those the worker
	// cleared (tests assert the path).
	reused, zeroed uint64
}

// NewPool returns an empty pool whose worker kick wakes.
func NewPool(kick func()) *Pool {
	p := &Pool{kick: kick}
	p.cleared.L = &p.mu
	return p
}

// TrackPages makes the pool find the pages written to the mappings it
// makes from now on, or says why the kernel cannot.
func (p *Pool) TrackPages() error {
	d, err := openDirtyPages()
	if err != nil {
		return err
	}
	p.pages = d
	return nil
}

// Tracks reports whether the pool finds the pages written to its
// mappings.
func (p *Pool) Tracks() bool { return p.pages != nil }

// StopTracking makes every later reset copy the whole image, as where the
// kernel cannot tell the pages written; call it before any mapping is
// made.
func (p *Pool) StopTracking() {
	if p.pages != nil {
		p.pages.close()
		p.pages = nil
	}
}

// Stats are counts of what a pool did and holds: mappings handed out
// again, cleared by the worker, idle and waiting to be cleared.
type Stats struct {
	Reused, Zeroed uint64
	Idle, Dirty    int
}

// Stats reports the pool's counts.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{Reused: p.reused, Zeroed: p.zeroed, Idle: len(p.idle), Dirty: len(p.dirty)}
}

// put keeps m for the worker to clear, or reports false (the caller
// unmaps it).
func (p *Pool) put(m reusableMapping) bool {
	n := m.committed()
	p.mu.Lock()
	held := len(p.idle) + len(p.dirty)
	if p.clearing != nil {
		held++
	}
	if p.closed || n > maxPooledMapping || held >= maxPooledMappings || p.bytes+n > maxPooledBytes {
		p.mu.Unlock()
		return false
	}
	p.dirty = append(p.dirty, m)
	p.bytes += n
	p.mu.Unlock()
	p.kick()
	return true
}

// ClearNext clears one dirty mapping, for the worker, and reports whether
// there was one.
func (p *Pool) ClearNext() bool {
	p.mu.Lock()
	if len(p.dirty) == 0 {
		p.mu.Unlock()
		return false
	}
	m := p.dirty[len(p.dirty)-1]
	p.dirty = p.dirty[:len(p.dirty)-1]
	p.clearing = m
	p.mu.Unlock()
	// Outside the lock: it is the costly part, and m is no one's.
	m.zero()
	p.mu.Lock()
	p.clearing = nil
	p.idle = append(p.idle, m)
	p.zeroed++
	p.cleared.Broadcast()
	p.mu.Unlock()
	return true
}

// get returns a cleared mapping of exactly reserve bytes, or nil. The
// most recently released one comes first: its pages are the likeliest to
// be resident.
func (p *Pool) get(reserve uint64) reusableMapping {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		m := p.idle[i]
		if m.reserved() != reserve {
			continue
		}
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		p.bytes -= m.committed()
		p.reused++
		return m
	}
	return nil
}

// Drain unmaps every mapping the pool holds, cleared or not, once the
// worker is done with the one it may be clearing; with closing set, later
// puts fail.
func (p *Pool) Drain(closing bool) {
	p.mu.Lock()
	p.closed = p.closed || closing
	p.waitClearing()
	held := append(p.idle, p.dirty...)
	p.idle, p.dirty, p.bytes = nil, nil, 0
	p.mu.Unlock()
	for _, m := range held {
		m.unmap()
	}
}

// Close unmaps every mapping the pool holds and refuses later ones.
func (p *Pool) Close() {
	p.Drain(true)
	if p.pages != nil {
		p.pages.close()
	}
}

// waitClearing waits, with p.mu held, until no mapping is being cleared.
func (p *Pool) waitClearing() {
	for p.clearing != nil {
		p.cleared.Wait()
	}
}

// Settle waits until the worker has cleared every released mapping.
func (p *Pool) Settle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.dirty) > 0 || p.clearing != nil {
		p.cleared.Wait()
	}
}
