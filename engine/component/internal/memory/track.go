//go:build linux || darwin || freebsd

package memory

import "os"

// The written-page tracking of a mapping (reset.go): registered
// with the engine's dirtyPages when the mapping is made, armed by a reset
// of a parked store's memory, disarmed when the memory is freed.

// track registers m with d, which then finds its written pages; a mapping
// d refuses is reset whole.
func (m *mmapBacking) track(d *dirtyPages) {
	if d != nil && d.register(m.region) == nil {
		m.dirty = d
	}
}

func (m *mmapBacking) holds(mem []byte) bool {
	return len(mem) > 0 && len(m.region) > 0 && addrOf(mem) == addrOf(m.region)
}

func (m *mmapBacking) arm(mem []byte) {
	m.armed = 0
	if m.dirty == nil || uint64(len(mem)) > m.commit || len(mem)%os.Getpagesize() != 0 {
		return
	}
	m.protected = true
	if m.dirty.protect(mem) == nil {
		m.armed, m.keep = uint64(len(mem)), keepPolicy{}
	}
}

func (m *mmapBacking) resetTo(mem, image []byte) bool {
	if m.armed == 0 || m.armed != uint64(len(mem)) || len(image) != len(mem) || !m.holds(mem) {
		return false
	}
	vec, err := m.dirty.written(mem, m.vec[:0])
	m.vec = vec[:0]
	if err != nil {
		m.armed = 0
		return false
	}
	base, end := addrOf(mem), addrOf(mem)+uint64(len(mem))
	for _, r := range vec {
		if r.start < base || r.end > end || r.start > r.end {
			m.armed = 0
			return false
		}
	}
	pages := 0
	for _, r := range vec {
		lo, hi := r.start-base, r.end-base
		copy(mem[lo:hi], image[lo:hi])
		pages += int(hi-lo) / os.Getpagesize()
	}
	if m.keep.reprotect(pages) && m.dirty.reprotect(mem) != nil {
		// mem holds its image, but what is written next would go unseen.
		m.armed = 0
	}
	return true
}

// unprotect drops the write protection of every committed page, so that
// clearing them takes no fault each.
func (m *mmapBacking) unprotect() {
	if m.protected && m.dirty.unprotect(m.region[:m.commit]) == nil {
		m.protected = false
	}
}
