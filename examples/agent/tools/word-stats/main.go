//go:build wasip1

// Command word-stats is the agent example's WASM tool: it exports
// murmur:tool/run@0.1.0 and measures a text file in the session workdir,
// which the runtime preopens as ".". examples/agent/build.sh compiles it as
// a wasip1 reactor and wraps it into word-stats.wasm with the preview1
// reactor adapter.
//
// Input data (what the model passes): {"path": "<file in the workdir>"}.
// Answer: status passed, summary "<path>: <w> words, <l> lines, <c>
// characters", data the JSON object {"path","words","lines","characters",
// "longest_word"}, metadata [("state_effect","read")]. A missing or
// unreadable file, or input that is not such an object: status failed,
// the summary saying why (the model sees it as an error result).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
	"unsafe"

	abi "github.com/mur-go/mur/guests/go/cabi"
)

func main() {}

// stats is the tool's data; encoding/json keeps the field order.
type stats struct {
	Path        string `json:"path"`
	Words       int    `json:"words"`
	Lines       int    `json:"lines"`
	Characters  int    `json:"characters"`
	LongestWord string `json:"longest_word"`
}

// measure answers one call: whether it passed, the summary and the data.
func measure(input string) (bool, string, string) {
	var in struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(input), &in); err != nil || in.Path == "" {
		return false, `input must be {"path": "<file in the workdir>"}`, ""
	}
	// Through a Root on the preopen: Go's wasip1 resolves a bare relative
	// path against no preopen when the preopen is named ".", and a Root
	// also keeps the model's path inside the workdir.
	root, err := os.OpenRoot(".")
	if err != nil {
		return false, fmt.Sprintf("opening the workdir: %v", err), ""
	}
	defer root.Close()
	b, err := root.ReadFile(in.Path)
	if err != nil {
		return false, fmt.Sprintf("reading %s: %v", in.Path, err), ""
	}
	text := string(b)
	s := stats{Path: in.Path, Characters: utf8.RuneCountInString(text)}
	for _, w := range strings.Fields(text) {
		s.Words++
		if utf8.RuneCountInString(w) > utf8.RuneCountInString(s.LongestWord) {
			s.LongestWord = w
		}
	}
	if text != "" {
		s.Lines = strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	}
	data, _ := json.Marshal(s)
	return true, fmt.Sprintf("%s: %d words, %d lines, %d characters", s.Path, s.Words, s.Lines, s.Characters), string(data)
}

// optString is a lowered option<string>: discriminant at 0, pointer at 4,
// length at 8.
type optString struct {
	some     uint8
	_        [3]byte
	ptr, len uint32
}

func some(s string) optString {
	return optString{some: 1, ptr: uint32(uintptr(unsafe.Pointer(abi.PinBytes([]byte(s))))), len: uint32(len(s))}
}

// toolResult is murmur:tool@0.1.0's tool-result in linear memory (size
// 52, align 4): status, summary, data, data-path, truncated, metadata.
type toolResult struct {
	status                  uint8
	_                       [3]byte
	summary, data, dataPath optString
	truncated               uint8
	_                       [3]byte
	metadataPtr, metadataN  uint32
}

var _ = [1]struct{}{}[unsafe.Sizeof(toolResult{})-52]

// run is murmur:tool/run@0.1.0#run, lowered: each option<string> parameter
// flattens to (discriminant, pointer, length); the result goes back as a
// pointer to a pinned tool-result.
//
//go:wasmexport murmur:tool/run@0.1.0#run
func run(dataSome, dataPtr, dataLen, logSome, logPtr, logLen uint32) unsafe.Pointer {
	input := ""
	if dataSome != 0 && dataLen > 0 {
		input = string(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), dataPtr)), dataLen))
	}
	// The input is copied; earlier results are released even if the host
	// skipped their post-return call.
	abi.Unpin()
	res := abi.Pin(new(toolResult))
	passed, summary, data := measure(input)
	res.summary = some(summary)
	if !passed {
		res.status = 1 // failed
		return unsafe.Pointer(res)
	}
	res.data = some(data)
	// One metadata pair, ("state_effect", "read"): the tool only reads.
	k, v := some("state_effect"), some("read")
	pair := abi.Pin(&[4]uint32{k.ptr, k.len, v.ptr, v.len})
	res.metadataPtr, res.metadataN = uint32(uintptr(unsafe.Pointer(pair))), 1
	return unsafe.Pointer(res)
}

// postRun releases what run handed over, once the host has lifted it.
//
//go:wasmexport cabi_post_murmur:tool/run@0.1.0#run
func postRun(unsafe.Pointer) { abi.Unpin() }
