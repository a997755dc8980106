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
}

func (l *memLimiter) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	return &limitedMemory{l: l, maxBytes: maxBytes, capHint: capBytes}
}

type limitedMemory struct {
	l        *memLimiter
	buf      []byte
	maxBytes uint64
	capHint  uint64
}

func (m *limitedMemory) Reallocate(size uint64) []byte {
	old := uint64(len(m.buf))
	// The initial allocation (buf == nil) cannot be refused: wazero needs
	// the memory's minimum. Instantiate checks the minimums against the cap
	// before anything is allocated.
	if m.buf != nil && size > old && m.l.max > 0 && m.l.used+size-old > m.l.max {
		m.l.desired = m.l.used + size - old
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
	} else {
		// Grow geometrically (bounded by the memory's max) so repeated
		// memory.grow calls don't copy the whole memory each time.
		newCap := max(size, m.capHint, min(2*uint64(cap(m.buf)), m.maxBytes))
		nb := make([]byte, size, newCap)
		copy(nb, m.buf)
		m.buf = nb
	}
	m.l.used += size - old
	return m.buf
}

func (m *limitedMemory) Free() {
	m.l.used -= uint64(len(m.buf))
	m.buf = nil
}
