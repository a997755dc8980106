//go:build wasip1

package main

import (
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
)

// toolResult is tool-result's canonical ABI layout (size 60, align 4), as
// in guests/go/toolrun; data-path, truncated and attachments stay
// none/false/empty.
type toolResult struct {
	status    uint8
	_         [3]byte
	summary   optString // 4
	data      optString // 16
	dataPath  optString // 28
	truncated uint32    // 40
	metaPtr   uint32    // 44
	metaLen   uint32    // 48
	attach    [2]uint32 // 52
}

var _ = [1]struct{}{}[unsafe.Sizeof(toolResult{})-60]

type optString struct {
	some, ptr, len uint32
}

// Status cases in canonical-ABI order.
const (
	statusPassed uint8 = iota
	statusFailed
	statusError
)

//go:wasmexport murmur:tool/run@0.2.0#run
func run(dataSome uint32, dataPtr unsafe.Pointer, dataLen uint32,
	logSome uint32, logPtr unsafe.Pointer, logLen uint32) unsafe.Pointer {
	// Read where the host lowered it, as driverkit.Export does: this slice
	// keeps the block alive once Unpin lets go of it.
	var req []byte
	if dataSome != 0 {
		req = unsafe.Slice((*byte)(dataPtr), dataLen)
	}
	cabi.Unpin()
	status, summary, data, md := answer(req)
	res := cabi.Pin(new(toolResult))
	res.status = status
	res.summary = lower(summary)
	res.data = lower(data)
	if len(md) > 0 {
		// list<tuple<string, string>>: 16 bytes an element.
		elems := cabi.Pin(new([4][4]uint32))
		for i, p := range md[:min(len(md), 4)] {
			k, v := lower(p[0]), lower(p[1])
			elems[i] = [4]uint32{k.ptr, k.len, v.ptr, v.len}
		}
		res.metaPtr, res.metaLen = uint32(uintptr(unsafe.Pointer(elems))), uint32(min(len(md), 4))
	}
	return unsafe.Pointer(res)
}

//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { cabi.Unpin() }

func lower(s string) optString {
	return optString{1, uint32(uintptr(cabi.PinString(s))), uint32(len(s))}
}
