//go:build wasip1

package main

import (
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
)

// toolResult is tool-result's canonical ABI layout (size 60, align 4), as
// in guests/go/toolrun; only status, summary and data are ever set.
type toolResult struct {
	status  uint8
	_       [3]byte
	summary optString // 4
	data    optString // 16
	rest    [8]uint32 // data-path, truncated, metadata, attachments: none/empty
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
	var req []byte
	if dataSome != 0 {
		req = append([]byte(nil), unsafe.Slice((*byte)(dataPtr), dataLen)...)
	}
	cabi.Unpin()
	status, summary, data := answer(req)
	res := cabi.Pin(new(toolResult))
	res.status = status
	res.summary = lower(summary)
	res.data = lower(data)
	return unsafe.Pointer(res)
}

//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { cabi.Unpin() }

func lower(s string) optString {
	return optString{1, uint32(uintptr(cabi.PinBytes([]byte(s)))), uint32(len(s))}
}
