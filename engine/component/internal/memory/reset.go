package memory

import "unsafe"

// A parked store's memory is reset to its snapshot's image (Reset; the
// engine's store_reuse.go). Copying the whole image costs the memory's size, 4 to
// 8 MB for a Go guest, whatever the call did; where the kernel reports
// the pages written since a point (dirty_linux.go) a reset copies back
// only those. The point is set ("armed") right after a memory holds its
// image: a whole copy, then every page write-protected. A reset then asks
// for every page that lost its protection, copies those from the image,
// and, depending on keepPolicy, protects them again. Which pages a reset
// copies never rests on the engine's bookkeeping: the kernel reports
// every page not protected since it last held the image, whether a call
// wrote it or the engine left it unprotected, so a page a reset skips
// holds the image. Any refusal on the way disarms the memory, and the
// next reset copies it whole and arms it again.

// resettable is a memory's backing that can find the pages written since
// it was armed.
type resettable interface {
	// holds reports whether mem is the memory the backing holds.
	holds(mem []byte) bool
	// resetTo makes mem hold image again, copying only what was written
	// since mem was armed with image; it reports false, having changed
	// nothing, when it cannot tell.
	resetTo(mem, image []byte) bool
	// arm marks mem, which holds its image now, as the point a later
	// resetTo starts from (a no-op where the backing cannot track).
	arm(mem []byte)
}

// Reset makes mem, one of l's memories, hold image again, and reports
// whether it copied only what was written.
func (l *Limiter) Reset(mem, image []byte) bool {
	var r resettable
	for _, m := range l.mems {
		if rb, ok := m.backing.(resettable); ok && rb.holds(mem) {
			r = rb
			break
		}
	}
	if r != nil && r.resetTo(mem, image) {
		return true
	}
	copy(mem, image)
	if r != nil {
		r.arm(mem)
	}
	return false
}

// keepPolicy decides when a reset protects the pages it copied back. A
// protected page's first write costs a fault (about a microsecond here,
// three copies of the page), and a call from a snapshot writes much the
// same pages every time; so the pages one call wrote are left
// unprotected and copied back at every reset, until the set found grows
// (the calls write elsewhere now) or maxKeptResets resets have passed
// (pages written once drop out), when they are protected again and the
// next call shows the set anew.
type keepPolicy struct {
	// found is the pages the first reset after protecting found.
	found int
	// since counts the resets since pages were protected.
	since int
}

// maxKeptResets bounds the resets pages stay unprotected.
const maxKeptResets = 32

// reprotect reports, at a reset that found n written pages, whether to
// protect them again.
func (k *keepPolicy) reprotect(n int) bool {
	k.since++
	if k.since == 1 {
		k.found = n
		return false
	}
	if n > k.found+k.found/8 || k.since > maxKeptResets {
		k.since = 0
		return true
	}
	return false
}

// addrOf is the address of b's first byte.
func addrOf(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }
