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

	"github.com/mur-go/mur/guests/go/cabi"
)

// summaryRunes caps how much of the input the summary echoes.
const summaryRunes = 32

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
	cabi.Unpin()

	res := cabi.Pin(new(toolResult))
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
	pair := cabi.Pin(&stringPair{k.ptr, k.len, v.ptr, v.len})
	res.metadata = abiList{addr(unsafe.Pointer(pair)), 1}
	return unsafe.Pointer(res)
}

// cabiPostRun releases what run handed to the host, once it has been lifted.
//
//go:wasmexport cabi_post_murmur:tool/run@0.2.0#run
func cabiPostRun(unsafe.Pointer) { cabi.Unpin() }

// lower copies s into a pinned block and returns it as some(s).
func lower(s string) optString {
	return optString{1, addr(cabi.PinBytes([]byte(s))), uint32(len(s))}
}

// addr is a pointer as the canonical ABI's 32-bit linear-memory offset.
func addr(p unsafe.Pointer) uint32 { return uint32(uintptr(p)) }

// main is required of package main even in c-shared mode, where it never runs.
func main() {}
