//go:build wasip1

package cabi

import "runtime"

// Headroom leaves a free run of n bytes of heap in the instance, for a
// guest to call at the end of its initialisation. mur starts every call
// from a snapshot of the initialised instance and reuses a store only if
// its memory did not grow; left alone, a snapshot holds little free heap,
// and only in the holes of the initialisation's garbage, so the first
// large block of a call (the request the host lowers through realloc,
// say) grows the heap by a whole arena and the store is thrown away.
//
// One block of n bytes, collected at once, is a run of free pages the
// calls allocate their large blocks from instead. Its pages were never
// written, so the image stays zero there; and the collection sets the
// next one's goal from the small live heap of the snapshot, so a call
// allocating less than that goal (4 MiB) runs no collection either.
func Headroom(n int) {
	runtime.GC()
	runtime.KeepAlive(make([]byte, n))
	runtime.GC()
}
