package component

import "sync"

// A store's memories are mapped when it is instantiated and unmapped when
// it is closed, and every tool or driver call makes a store. Unmapping and
// then faulting fresh pages in again (wazero copies a Go guest's 1.5 MB of
// data segments into them) cost more than the instantiation around them,
// so the engine keeps a few released mappings, cleared, for the next
// store. Bounded in count and committed bytes: a burst of calls leaves no
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

// memPool holds idle mappings for an Engine.
type memPool struct {
	mu     sync.Mutex
	idle   []reusableMapping
	bytes  uint64
	closed bool
	// reused counts mappings handed out again (tests assert the path).
	reused uint64
}

// put keeps m for reuse, cleared, or reports false (the caller unmaps it).
func (p *memPool) put(m reusableMapping) bool {
	n := m.committed()
	if n > maxPooledMapping || !p.room(n) {
		return false
	}
	// Cleared outside the lock: it is the costly part, and m is no one's.
	m.zero()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle) >= maxPooledMappings || p.bytes+n > maxPooledBytes {
		return false
	}
	p.idle = append(p.idle, m)
	p.bytes += n
	return true
}

func (p *memPool) room(n uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closed && len(p.idle) < maxPooledMappings && p.bytes+n <= maxPooledBytes
}

// get returns an idle mapping of exactly reserve bytes, or nil. The most
// recently released one comes first: its pages are the likeliest to be
// resident.
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

// drain unmaps every idle mapping; with closing set, later puts fail.
func (p *memPool) drain(closing bool) {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.bytes = nil, 0
	p.closed = p.closed || closing
	p.mu.Unlock()
	for _, m := range idle {
		m.unmap()
	}
}
