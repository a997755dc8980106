// Package memory backs the linear memories of the component engine's
// stores: a Limiter per store caps their total size; mappings reserved at
// a memory's maximum and committed as it grows, kept in a Pool when
// released and cleared by the engine's worker for the next store; and,
// where the kernel reports the pages written since a point (userfaultfd
// write protection and PAGEMAP_SCAN on Linux), a reset of a reused
// store's memory that copies back only those. See RATIONALE.md, "The
// fixed cost of a store" and "A reset that costs what the call wrote".
package memory

import "github.com/tetratelabs/wazero/experimental"

// Limiter backs every linear memory of one store and caps their total
// size. wazero asks it for memory through experimental.WithMemoryAllocator,
// so a guest's memory.grow past the cap fails (returns -1) like any other
// failed grow, and the store remembers that a limit, not a bug, was hit.
type Limiter struct {
	max  uint64 // 0: unlimited
	used uint64
	// Desired is set to the total the store would have reached when a
	// growth is refused; zero when no limit was hit.
	Desired uint64
	// pool is the engine's, where released mappings wait for reuse.
	pool *Pool
	// mems are the memories allocated, which a reset looks a backing up
	// in (reset.go).
	mems []*limitedMemory
}

// NewLimiter returns a limiter capping its memories at max bytes in all
// (0: no cap), whose mappings come from and go back to pool.
func NewLimiter(max uint64, pool *Pool) *Limiter {
	return &Limiter{max: max, pool: pool}
}

// Allocate is wazero's experimental.MemoryAllocator.
func (l *Limiter) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	m := &limitedMemory{l: l, backing: newBacking(l.pool, capBytes, maxBytes)}
	l.mems = append(l.mems, m)
	return m
}

// backing holds the bytes of one linear memory. Where the OS allows it the
// whole maximum is reserved up front and committed as the memory grows, so
// growing never copies; pages are zero when committed, whether fresh from
// the kernel or cleared in the engine's pool (pool.go).
type backing interface {
	// grow returns the memory resized to size bytes, or nil if it can't.
	grow(size uint64) []byte
	free()
}

type limitedMemory struct {
	l       *Limiter
	backing backing
	size    uint64
}

func (m *limitedMemory) Reallocate(size uint64) []byte {
	// The initial allocation (size 0 so far) cannot be refused: wazero
	// needs the memory's minimum. Instantiate checks the minimums against
	// the cap before anything is allocated.
	if m.size != 0 && size > m.size && m.l.max > 0 && m.l.used+size-m.size > m.l.max {
		m.l.Desired = m.l.used + size - m.size
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
