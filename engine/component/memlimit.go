package component

import "github.com/tetratelabs/wazero/experimental"

// memLimiter backs every linear memory of one store and caps their total
// size. wazero asks it for memory through experimental.WithMemoryAllocator,
// so a guest's memory.grow past the cap fails (returns -1) like any other
// failed grow, and the store remembers that a limit, not a bug, was hit.
type memLimiter struct {
	max  uint64 // 0: unlimited
	used uint64
	// desired is set to the total the store would have reached when a
	// growth is refused; zero when no limit was hit.
	desired uint64
	// pool is the engine's, where released mappings wait for reuse.
	pool *memPool
	// mems are the memories allocated, which a reset looks a backing up
	// in (store_reset.go).
	mems []*limitedMemory
}

func (l *memLimiter) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	m := &limitedMemory{l: l, backing: newBacking(l.pool, capBytes, maxBytes)}
	l.mems = append(l.mems, m)
	return m
}

// backing holds the bytes of one linear memory. Where the OS allows it the
// whole maximum is reserved up front and committed as the memory grows, so
// growing never copies; pages are zero when committed, whether fresh from
// the kernel or cleared in the engine's pool (memory_pool.go).
type backing interface {
	// grow returns the memory resized to size bytes, or nil if it can't.
	grow(size uint64) []byte
	free()
}

type limitedMemory struct {
	l       *memLimiter
	backing backing
	size    uint64
}

func (m *limitedMemory) Reallocate(size uint64) []byte {
	// The initial allocation (size 0 so far) cannot be refused: wazero
	// needs the memory's minimum. Instantiate checks the minimums against
	// the cap before anything is allocated.
	if m.size != 0 && size > m.size && m.l.max > 0 && m.l.used+size-m.size > m.l.max {
		m.l.desired = m.l.used + size - m.size
		return nil
	}
	b := m.backing.grow(size)
	if b == nil {
		return nil
	}
	m.l.used += size - m.size
	m.size = size
	return b
}

func (m *limitedMemory) Free() {
	m.l.used -= m.size
	m.size = 0
	m.backing.free()
}

// heapBacking is the portable backing: a Go slice grown geometrically
// (bounded by the memory's max) so repeated growth doesn't copy each time.
type heapBacking struct {
	buf      []byte
	capHint  uint64
	maxBytes uint64
}

func (h *heapBacking) grow(size uint64) []byte {
	if size <= uint64(cap(h.buf)) {
		h.buf = h.buf[:size]
		return h.buf
	}
	newCap := max(size, h.capHint, min(2*uint64(cap(h.buf)), h.maxBytes))
	nb := make([]byte, size, newCap)
	copy(nb, h.buf)
	h.buf = nb
	return nb
}

func (h *heapBacking) free() { h.buf = nil }
