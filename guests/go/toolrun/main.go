//go:build wasip1

// Command toolrun is the Go test guest: a reactor core module exporting
// murmur:tool/run@0.2.0#run in the canonical ABI, written by hand so the
// fixture depends on nothing but the Go toolchain. guests/build.sh wraps it
// into a component with jco and the preview1 reactor adapter.
//
// run answers deterministically from its input (the JS guest must match it
// byte for byte; guests/README.md is the contract):
//
//	status    passed
//	summary   some("echo: " + first 32 code points of data)
//	data      data with its code points reversed (none when data is none)
//	data-path log-path, as given
//	truncated data is longer than 32 code points
//	metadata  [("len", decimal UTF-8 byte length of data)]
//	attachments empty
package main

import (
	"strconv"
	"unsafe"
)

// summaryRunes caps how much of the input the summary echoes.
const summaryRunes = 32

// arena serves cabi_realloc until the Go heap is usable: the preview1
// adapter allocates its stack and its state (64 KiB each, align 8) through
// cabi_realloc from inside the first WASI call the runtime makes during
// _initialize, before malloc works. It lives in bss, so costs no file size.
var (
	arena     [128<<10 + 64]byte
	arenaUsed uintptr
)

// heapReady flips once package initialisation runs, i.e. after the runtime
// (and its allocator) is up; from then on allocations come from the heap.
var heapReady bool

func init() { heapReady = true }

// pinned keeps every heap block handed across the ABI reachable until the
// host is done with it: lowered arguments until run has copied them, results
// until the post-return call. Go's collector never moves objects, so a
// reference is all it takes.
var pinned []unsafe.Pointer

// cabiRealloc is the canonical ABI allocator. The arena path must stay
// nosplit and allocation-free because it runs before the runtime is ready.
//
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
		// Too early to panic: the runtime cannot print or unwind yet.
		trap()
	}
	arenaUsed = off + size
	// unsafe.Add rather than &arena[off]: no bounds check to panic from.
	return unsafe.Add(unsafe.Pointer(&arena[0]), off)
}

// alignPad is how many bytes to skip from addr to reach a multiple of align
// (a power of two, as the canonical ABI guarantees).
//
//go:nosplit
func alignPad(addr, align uintptr) uintptr {
	if align == 0 {
		return 0
	}
	return (align - addr%align) % align
}

// trap executes the wasm unreachable instruction (trap_wasm.s).
func trap()

// toolResult mirrors the canonical ABI layout of tool-result (size 60,
// align 4): Go lays these fields out at the ABI's offsets, noted below.
type toolResult struct {
	status      uint8
	_           [3]byte
	summary     optString // 4
	data        optString // 16
	dataPath    optString // 28
	truncated   uint8     // 40
	_           [3]byte
	metadata    abiList // 44
	attachments abiList // 52
}

// The index is a compile-time constant: building fails unless the size is 60.
var _ = [1]struct{}{}[unsafe.Sizeof(toolResult{})-60]

type optString struct {
	some, ptr, len uint32
}

type abiList struct {
	ptr, len uint32
}

// stringPair is one lowered tuple<string, string>.
type stringPair struct {
	keyPtr, keyLen, valPtr, valLen uint32
}

//go:wasmexport murmur:tool/run@0.2.0#run
func run(dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32,
	logSome uint32, logPtr unsafe.Pointer, logLen uint32) unsafe.Pointer {
	var data, logPath string
	if dataSome != 0 {
		data = string(unsafe.Slice((*byte)(dataPtr), dataLen))
	}
	if logSome != 0 {
		logPath = string(unsafe.Slice((*byte)(logPtr), logLen))
	}
	// The arguments are copied, and the host is done with any earlier
	// results even if it skipped post-return: only this call's stay pinned.
	unpinAll()

	res := pin(new(toolResult))
	runes := []rune(data)
	res.summary = lower("echo: " + string(runes[:min(len(runes), summaryRunes)]))
	if len(runes) > summaryRunes {
		res.truncated = 1
	}
	if dataSome != 0 {
		for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
			runes[i], runes[j] = runes[j], runes[i]
		}
		res.data = lower(string(runes))
	}
	if logSome != 0 {
		res.dataPath = lower(logPath)
	}
	k, v := lower("len"), lower(strconv.Itoa(len(data)))
	pair := pin(&stringPair{k.ptr, k.len, v.ptr, v.len})
	res.metadata = abiList{addr(unsafe.Pointer(pair)), 1}
	return unsafe.Pointer(res)
}

// cabiPostRun releases what run handed to the host, once it has been lifted.
//
//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { unpinAll() }

func unpinAll() {
	clear(pinned)
	pinned = pinned[:0]
}

func pin[T any](p *T) *T {
	pinned = append(pinned, unsafe.Pointer(p))
	return p
}

// lower copies s into a pinned block and returns it as some(s).
func lower(s string) optString {
	b := []byte(s)
	p := unsafe.Pointer(unsafe.SliceData(b))
	pinned = append(pinned, p)
	return optString{1, addr(p), uint32(len(b))}
}

// addr is a pointer as the canonical ABI's 32-bit linear-memory offset.
func addr(p unsafe.Pointer) uint32 { return uint32(uintptr(p)) }

// main is required of package main even in c-shared mode, where it never runs.
func main() {}
