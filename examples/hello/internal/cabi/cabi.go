//go:build wasip1

// Package cabi is the canonical-ABI plumbing the example's two Go guests
// share: the allocator the host calls (cabi_realloc), keeping blocks alive
// while the host still reads or writes them, and the memory layout of
// murmur:tool@0.1.0's records.
//
// The guests are GOOS=wasip1 c-shared reactors wrapped by the preview1
// reactor adapter. The adapter allocates its own state through cabi_realloc
// during _initialize, before the Go runtime can allocate, so early requests
// are served from a static arena.
package cabi

import "unsafe"

// arena serves cabi_realloc until package initialisation has run. It lives
// in bss, so it costs no file size. The adapter asks for two 64 KiB blocks.
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
		trap() // nothing can be reported this early
	}
	arenaUsed = off + size
	return unsafe.Add(unsafe.Pointer(&arena[0]), off)
}

// pad is the distance from addr up to the next multiple of align (a power
// of two, or 0 meaning 1).
//
//go:nosplit
func pad(addr, align uintptr) uintptr {
	if align == 0 {
		return 0
	}
	return (align - addr%align) % align
}

// trap executes the wasm unreachable instruction (trap_wasm.s).
func trap()

// Pin keeps p alive until the next Unpin and returns it.
func Pin[T any](p *T) *T {
	pinned = append(pinned, unsafe.Pointer(p))
	return p
}

// Unpin releases every pinned block: call it once the host is done with
// them (after a post-return call, or once an import's results are copied).
func Unpin() {
	clear(pinned)
	pinned = pinned[:0]
}

// Addr is p as a 32-bit linear-memory offset.
func Addr(p unsafe.Pointer) uint32 { return uint32(uintptr(p)) }

// String copies len bytes at ptr into a Go string.
func String(ptr, n uint32) string {
	if n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(at(ptr)), n))
}

// at is linear-memory offset addr as a pointer (the inverse of Addr).
func at(addr uint32) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), addr) }

// OptString is a lowered option<string>: discriminant byte at 0, pointer
// at 4, length at 8 (size 12, align 4).
type OptString struct {
	Some uint8
	_    [3]byte
	Ptr  uint32
	Len  uint32
}

// Some copies s into a pinned block and returns it as some(s).
func Some(s string) OptString {
	b := []byte(s)
	p := unsafe.Pointer(unsafe.SliceData(b))
	pinned = append(pinned, p)
	return OptString{Some: 1, Ptr: Addr(p), Len: uint32(len(b))}
}

// Get lifts o: the string and whether it was some.
func (o OptString) Get() (string, bool) {
	if o.Some == 0 {
		return "", false
	}
	return String(o.Ptr, o.Len), true
}

// List is a lowered list: pointer, element count.
type List struct {
	Ptr, Len uint32
}

// Pair is one lowered tuple<string, string>.
type Pair struct {
	KeyPtr, KeyLen, ValPtr, ValLen uint32
}

// Pairs lowers kv (key, value, key, value, ...) into a pinned list.
func Pairs(kv ...string) List {
	if len(kv) == 0 {
		return List{}
	}
	ps := make([]Pair, len(kv)/2)
	for i := range ps {
		k, v := Some(kv[2*i]), Some(kv[2*i+1])
		ps[i] = Pair{k.Ptr, k.Len, v.Ptr, v.Len}
	}
	p := unsafe.Pointer(unsafe.SliceData(ps))
	pinned = append(pinned, p)
	return List{Addr(p), uint32(len(ps))}
}

// Status values of murmur:tool/run's status enum.
const (
	Passed uint8 = iota
	Failed
	Error
)

// StatusName is the WIT spelling of a status.
func StatusName(s uint8) string {
	switch s {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Error:
		return "error"
	}
	return "unknown"
}

// ToolResult is murmur:tool@0.1.0's tool-result as laid out in memory
// (size 52, align 4); the comments give the canonical offsets.
type ToolResult struct {
	Status    uint8 // 0
	_         [3]byte
	Summary   OptString // 4
	Data      OptString // 16
	DataPath  OptString // 28
	Truncated uint8     // 40
	_         [3]byte
	Metadata  List // 44
}

// Compile-time size check: the array index is negative unless it is 52.
var _ = [1]struct{}{}[unsafe.Sizeof(ToolResult{})-52]

// MetadataPairs lifts the result's metadata list.
func (r *ToolResult) MetadataPairs() [][2]string {
	if r.Metadata.Len == 0 {
		return nil
	}
	ps := unsafe.Slice((*Pair)(at(r.Metadata.Ptr)), r.Metadata.Len)
	out := make([][2]string, len(ps))
	for i, p := range ps {
		out[i] = [2]string{String(p.KeyPtr, p.KeyLen), String(p.ValPtr, p.ValLen)}
	}
	return out
}
