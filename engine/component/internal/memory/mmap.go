//go:build linux || darwin || freebsd

package memory

import "syscall"

// maxReserve bounds the address space reserved for one memory: a 32-bit
// memory never exceeds 4 GiB.
const maxReserve = 4 << 30

// mmapBacking reserves the memory's maximum as inaccessible address space
// and makes pages readable and writable as the memory grows.
type mmapBacking struct {
	region []byte // the whole reservation
	commit uint64
	// pool takes the mapping back when the memory is freed; nil unmaps.
	pool *Pool
	// dirty finds the pages written to the mapping, nil when the engine
	// cannot (track.go). armed is the size of the memory armed for
	// a reset that copies only those, 0 when it is not; protected says
	// some pages may be write-protected; keep decides when a reset
	// protects pages again; vec is the scans' buffer.
	dirty     *dirtyPages
	armed     uint64
	protected bool
	keep      keepPolicy
	vec       []pageRegion
}

func newBacking(pool *Pool, capBytes, maxBytes uint64) backing {
	reserve := min(max(maxBytes, capBytes), maxReserve)
	if reserve == 0 {
		return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
	}
	if pool != nil {
		if m := pool.get(reserve); m != nil {
			return m.(*mmapBacking)
		}
	}
	region, err := syscall.Mmap(-1, 0, int(reserve), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		// Address space is short (e.g. a ulimit): fall back to the heap.
		return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
	}
	m := &mmapBacking{region: region, pool: pool}
	if pool != nil {
		m.track(pool.pages)
	}
	return m
}

func (m *mmapBacking) grow(size uint64) []byte {
	if size > uint64(len(m.region)) {
		return nil
	}
	if size > m.commit {
		if err := syscall.Mprotect(m.region[m.commit:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		m.commit = size
	}
	return m.region[:size:size]
}

func (m *mmapBacking) free() {
	if m.region == nil {
		return
	}
	// The next memory of the mapping is another memory, never armed.
	m.armed = 0
	if m.pool != nil && m.pool.put(m) {
		return
	}
	m.unmap()
}

func (m *mmapBacking) reserved() uint64  { return uint64(len(m.region)) }
func (m *mmapBacking) committed() uint64 { return m.commit }

// zero clears the committed pages in place: they stay resident, so the
// next memory neither unmaps nor faults them in again.
func (m *mmapBacking) zero() {
	m.unprotect()
	clear(m.region[:m.commit])
}

func (m *mmapBacking) unmap() {
	_ = syscall.Munmap(m.region)
	m.region, m.commit = nil, 0
}
