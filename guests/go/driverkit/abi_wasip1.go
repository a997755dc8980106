//go:build wasip1

package driverkit

import (
	"os"
	"runtime"
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
	"github.com/mur-go/mur/guests/go/wasihttp"
)

// toolResult is tool-result's canonical layout in murmur:tool@0.2.0
// (size 60, align 4).
type toolResult struct {
	status    uint8
	_         [3]byte
	summary   optString // 4
	data      optString // 16
	dataPath  optString // 28
	truncated uint8     // 40
	_         [3]byte
	metadata  list // 44
	attach    list // 52
}

var _ = [1]struct{}{}[unsafe.Sizeof(toolResult{})-60]

type optString struct{ some, ptr, len uint32 }

type list struct{ ptr, len uint32 }

// Ready readies a driver, at its initialisation, for the snapshot mur
// starts every call from: Warm, the free heap calls allocate from
// (Headroom), and Warm again. The collections Headroom runs shrink the
// goroutine's stack and empty the allocator's per-size caches, which
// every call would otherwise grow and refill anew (stack copies and span
// set-up were a third of a small call's time in wasm); the second Warm
// leaves both as a call needs them.
func Ready(p Provider, s Samples) {
	env := EnvFrom(os.Getenv)
	Warm(p, env, s)
	cabi.Headroom(Headroom)
	Warm(p, env, s)
}

// Export is the body of a driver's murmur:tool/run@0.2.0#run export: it
// reads the request, answers it with p over the host's wasi:http, and
// returns the lowered tool-result. The driver's cabi_post export calls
// cabi.Unpin.
func Export(p Provider, dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32) unsafe.Pointer {
	// The request is read where the host lowered it, not copied: this
	// slice keeps the block alive once Unpin lets go of it, and the host
	// writes a block only before the call.
	var req []byte
	if dataSome != 0 {
		req = unsafe.Slice((*byte)(dataPtr), dataLen)
	}
	cabi.Unpin()
	r := Run(p, EnvFrom(os.Getenv), wasihttp.New(), chunks{}, req)
	out := cabi.Pin(new(toolResult))
	out.status = uint8(r.Status)
	out.summary = lowerString(r.Summary)
	out.data = lowerString(r.Data)
	if len(r.Metadata) > 0 {
		pairs := make([]uint32, 0, 4*len(r.Metadata))
		for _, kv := range r.Metadata {
			k, v := lowerString(kv[0]), lowerString(kv[1])
			pairs = append(pairs, k.ptr, k.len, v.ptr, v.len)
		}
		out.metadata = list{uint32(uintptr(cabi.PinBytes(u32Bytes(pairs)))), uint32(len(r.Metadata))}
	}
	return unsafe.Pointer(out)
}

func lowerString(s string) optString {
	return optString{1, uint32(uintptr(cabi.PinString(s))), uint32(len(s))}
}

func u32Bytes(v []uint32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*4)
}

//go:wasmimport murmur:text/chunks@0.1.0 emit-chunk
func emitChunk(p unsafe.Pointer, n uint32)

//go:wasmimport murmur:text/chunks@0.1.0 emit-thinking-chunk
func emitThinkingChunk(p unsafe.Pointer, n uint32)

// chunks is the Emitter over murmur:text/chunks.
type chunks struct{}

func (chunks) Chunk(s string) {
	if s != "" {
		emitChunk(unsafe.Pointer(unsafe.StringData(s)), uint32(len(s)))
		runtime.KeepAlive(s)
	}
}

func (chunks) Thinking(s string) {
	if s != "" {
		emitThinkingChunk(unsafe.Pointer(unsafe.StringData(s)), uint32(len(s)))
		runtime.KeepAlive(s)
	}
}
