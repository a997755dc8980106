package component

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

// memPool holds released mappings for an Engine: dirty ones wait for the
// worker, which clears them one at a time and moves them to idle.
type memPool struct {
	// bg is the engine's worker, woken when a mapping is released.
	bg *background
	// pages finds the pages written to the mappings the pool makes, nil
	// when the kernel cannot (store_reset.go).
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

// put keeps m for the worker to clear, or reports false (the caller
// unmaps it).
func (p *memPool) put(m reusableMapping) bool {
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
	p.bg.kick()
	return true
}

// clearNext clears one dirty mapping, for the worker, and reports whether
// there was one.
func (p *memPool) clearNext() bool {
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
func (p *memPool) get(reserve uint64) reusableMapping {
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

// drain unmaps every mapping the pool holds, cleared or not, once the
// worker is done with the one it may be clearing; with closing set, later
// puts fail.
func (p *memPool) drain(closing bool) {
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

// waitClearing waits, with p.mu held, until no mapping is being cleared.
func (p *memPool) waitClearing() {
	for p.clearing != nil {
		p.cleared.Wait()
	}
}

// settle waits until the worker has cleared every released mapping.
func (p *memPool) settle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.dirty) > 0 || p.clearing != nil {
		p.cleared.Wait()
	}
}
