//go:build wasip1

package main

import (
	"strings"
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
)

// The allocator and pinning are package cabi's, shared by every Go guest.

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
	cabi.Unpin()
	do(strings.Fields(line))
	return unsafe.Pointer(cabi.Pin(new(toolResult)))
}

//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { cabi.Unpin() }
