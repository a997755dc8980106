//go:build linux || darwin || freebsd

package component

import "syscall"

// maxReserve bounds the address space reserved for one memory: a 32-bit
// memory never exceeds 4 GiB.
const maxReserve = 4 << 30

// mmapBacking reserves the memory's maximum as inaccessible address space
// and makes pages readable and writable as the memory grows.
type mmapBacking struct {
	region    []byte // the whole reservation
	committed uint64
}

func newBacking(capBytes, maxBytes uint64) backing {
	reserve := min(max(maxBytes, capBytes), maxReserve)
	if reserve == 0 {
		return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
	}
	region, err := syscall.Mmap(-1, 0, int(reserve), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		// Address space is short (e.g. a ulimit): fall back to the heap.
		return &heapBacking{capHint: capBytes, maxBytes: maxBytes}
	}
	return &mmapBacking{region: region}
}

func (m *mmapBacking) grow(size uint64) []byte {
	if size > uint64(len(m.region)) {
		return nil
	}
	if size > m.committed {
		if err := syscall.Mprotect(m.region[m.committed:size], syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		m.committed = size
	}
	return m.region[:size:size]
}

func (m *mmapBacking) free() {
	if m.region != nil {
		_ = syscall.Munmap(m.region)
		m.region, m.committed = nil, 0
	}
}
