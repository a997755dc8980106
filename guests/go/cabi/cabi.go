//go:build wasip1

// Package cabi is the canonical-ABI allocator every Go test guest shares:
// cabi_realloc, and the pinning that keeps blocks handed to the host alive
// until the host is done with them.
//
// The guests are GOOS=wasip1 c-shared reactors wrapped by the preview1
// reactor adapter. The adapter allocates its stack and its state (64 KiB
// each, align 8) through cabi_realloc from inside the first WASI call the
// runtime makes during _initialize, before the Go heap works, so early
// requests are served from a static arena.
package cabi

import "unsafe"

// arena serves cabi_realloc until package initialisation has run. It lives
// in bss, so it costs no file size.
var (
	arena     [128<<10 + 64]byte
	arenaUsed uintptr
)

// heapReady is set by init, which runs only once the runtime is up.
var heapReady bool

func init() { heapReady = true }

// pinned holds every heap block handed across the ABI so the collector keeps
// it. Go never moves heap objects, so holding a pointer is enough.
var pinned []unsafe.Pointer

// realloc is the canonical ABI allocator. Its arena path runs before the
// runtime works, so it must neither grow the stack nor allocate.
//
//go:wasmexport cabi_realloc
//go:nosplit
func realloc(oldPtr unsafe.Pointer, oldLen, align, newLen uint32) unsafe.Pointer {
	if !heapReady {
		return arenaAlloc(uintptr(align), uintptr(newLen))
	}
	block := make([]byte, newLen+align)
	base := unsafe.Pointer(unsafe.SliceData(block))
	pinned = append(pinned, base)
	p := unsafe.Add(base, pad(uintptr(base), uintptr(align)))
	if oldPtr != nil {
		copy(unsafe.Slice((*byte)(p), newLen), unsafe.Slice((*byte)(oldPtr), min(oldLen, newLen)))
	}
	return p
}

//go:nosplit
func arenaAlloc(align, size uintptr) unsafe.Pointer {
	off := arenaUsed + pad(uintptr(unsafe.Pointer(&arena[0]))+arenaUsed, align)
	if off+size > uintptr(len(arena)) {
		Trap() // too early to panic: the runtime cannot print or unwind yet
	}
	arenaUsed = off + size
	// unsafe.Add rather than &arena[off]: no bounds check to panic from.
	return unsafe.Add(unsafe.Pointer(&arena[0]), off)
}

// pad is how many bytes to skip from addr to reach a multiple of align (a
// power of two, as the canonical ABI guarantees).
//
//go:nosplit
func pad(addr, align uintptr) uintptr {
	if align == 0 {
		return 0
	}
	return (align - addr%align) % align
}

// Trap executes the wasm unreachable instruction (trap_wasm.s).
func Trap()

// Pin keeps p alive until the next Unpin and returns it.
func Pin[T any](p *T) *T {
	pinned = append(pinned, unsafe.Pointer(p))
	return p
}

// PinBytes copies b into a pinned block and returns its address.
func PinBytes(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	c := append([]byte(nil), b...)
	p := unsafe.Pointer(unsafe.SliceData(c))
	pinned = append(pinned, p)
	return p
}

// PinString pins the bytes of s, which no one writes, and returns their
// address: unlike PinBytes, without a copy (a reply's data is its
// largest block).
func PinString(s string) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	p := unsafe.Pointer(unsafe.StringData(s))
	pinned = append(pinned, p)
	return p
}

// Unpin releases every pinned block: call it once the host is done with
// them (post-return), or at the start of the next call.
func Unpin() {
	clear(pinned)
	pinned = pinned[:0]
}
