//go:build wasip1

package main

import (
	"strings"
	"unsafe"
)

// The canonical ABI plumbing, as in ../toolrun (see its comments): an arena
// serves cabi_realloc until the Go heap is up, and every block handed to
// the host stays pinned until the post-return call.

var (
	arena     [128<<10 + 64]byte
	arenaUsed uintptr
	heapReady bool
	pinned    []unsafe.Pointer
)

func init() { heapReady = true }

//go:wasmexport cabi_realloc
//go:nosplit
func cabiRealloc(oldPtr unsafe.Pointer, oldLen, align, newLen uint32) unsafe.Pointer {
	if !heapReady {
		return arenaAlloc(uintptr(align), uintptr(newLen))
	}
	block := make([]byte, newLen+align)
	base := unsafe.Pointer(unsafe.SliceData(block))
	pinned = append(pinned, base)
	p := unsafe.Add(base, alignPad(uintptr(base), uintptr(align)))
	if oldPtr != nil {
		copy(unsafe.Slice((*byte)(p), newLen), unsafe.Slice((*byte)(oldPtr), min(oldLen, newLen)))
	}
	return p
}

//go:nosplit
func arenaAlloc(align, size uintptr) unsafe.Pointer {
	base := uintptr(unsafe.Pointer(&arena[0]))
	off := arenaUsed + alignPad(base+arenaUsed, align)
	if off+size > uintptr(len(arena)) {
		trap()
	}
	arenaUsed = off + size
	return unsafe.Pointer(&arena[off])
}

//go:nosplit
func alignPad(addr, align uintptr) uintptr {
	if align == 0 {
		return 0
	}
	return (align - addr%align) % align
}

// trap executes the wasm unreachable instruction (trap_wasm.s).
func trap()

// toolResult is tool-result's canonical ABI layout (size 60, align 4); run
// only ever sets status passed, which is zero.
type toolResult struct {
	words [15]uint32
}

//go:wasmexport murmur:tool/run@0.2.0#run
func run(dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32,
	logSome uint32, logPtr unsafe.Pointer, logLen uint32) unsafe.Pointer {
	var line string
	if dataSome != 0 {
		line = string(unsafe.Slice((*byte)(dataPtr), dataLen))
	}
	clear(pinned)
	pinned = pinned[:0]
	do(strings.Fields(line))
	res := new(toolResult)
	pinned = append(pinned, unsafe.Pointer(res))
	return unsafe.Pointer(res)
}

//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) {
	clear(pinned)
	pinned = pinned[:0]
}
