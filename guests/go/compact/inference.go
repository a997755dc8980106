//go:build wasip1

package main

import (
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
	"github.com/mur-go/mur/guests/go/hookabi"
)

// runInference flattens inference-request (messages, system-prompt,
// model: 8 flat values) and passes a pointer for the result.
//
//go:wasmimport murmur:runtime/inference@0.2.0 run-inference
func runInferenceImport(msgsPtr unsafe.Pointer, msgsLen uint32, sysSome uint32, sysPtr, sysLen uint32,
	modelSome uint32, modelPtr, modelLen uint32, ret unsafe.Pointer)

// inferenceResult is result<inference-response, string>: align 8, the
// payload at 8.
type inferenceResult struct {
	isErr     uint8
	_         [7]byte
	textPtr   uint32 // err: the error string
	textLen   uint32
	modelPtr  uint32
	modelLen  uint32
	inTokens  uint64
	outTokens uint64
}

// runInference makes one completion; err is run-inference's err text.
func runInference(msgs []hookabi.Message, system string, model *string) (text, err string) {
	sp, sn := hookabi.Lower(system)
	var ms, mp, mn uint32
	if model != nil {
		ms = 1
		mp, mn = hookabi.Lower(*model)
	}
	ret := cabi.Pin(new(inferenceResult))
	runInferenceImport(hookabi.LowerMessages(msgs), uint32(len(msgs)), 1, sp, sn, ms, mp, mn, unsafe.Pointer(ret))
	s := hookabi.Str(unsafe.Pointer(uintptr(ret.textPtr)), ret.textLen)
	if ret.isErr != 0 {
		return "", s
	}
	return s, ""
}
