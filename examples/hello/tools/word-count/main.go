//go:build wasip1

// Command word-count is the example's WASM tool: it exports
// murmur:tool/run@0.1.0 and counts the words, lines and characters of its
// input data. examples/hello/build.sh compiles it as a wasip1 reactor and
// wraps it into word-count.wasm with the preview1 reactor adapter.
//
// Answer: status passed, summary "<w> words, <l> lines, <c> characters",
// data a JSON object {"words","lines","characters","bytes","longest_word"},
// metadata [("state_effect","read")]. No data: status failed with a summary
// saying what to pass. log-path is ignored.
package main

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/mur-go/mur/examples/hello/internal/cabi"
	abi "github.com/mur-go/mur/guests/go/cabi"
)

func main() {}

// counts is the tool's answer.
type counts struct {
	Words, Lines, Characters, Bytes int
	LongestWord                     string
}

// json renders c as the tool's data. Written out by hand (rather than with
// encoding/json) to keep the component small.
func (c counts) json() string {
	var b strings.Builder
	b.WriteString(`{"words":` + strconv.Itoa(c.Words))
	b.WriteString(`,"lines":` + strconv.Itoa(c.Lines))
	b.WriteString(`,"characters":` + strconv.Itoa(c.Characters))
	b.WriteString(`,"bytes":` + strconv.Itoa(c.Bytes))
	b.WriteString(`,"longest_word":`)
	jsonString(&b, c.LongestWord)
	b.WriteString("}")
	return b.String()
}

// jsonString writes s as a JSON string literal.
func jsonString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

func count(text string) counts {
	c := counts{Characters: utf8.RuneCountInString(text), Bytes: len(text)}
	for _, w := range strings.Fields(text) {
		c.Words++
		if utf8.RuneCountInString(w) > utf8.RuneCountInString(c.LongestWord) {
			c.LongestWord = w
		}
	}
	if text != "" {
		c.Lines = strings.Count(text, "\n") + 1
		if strings.HasSuffix(text, "\n") {
			c.Lines--
		}
	}
	return c
}

func plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}

// run is murmur:tool/run@0.1.0#run, lowered: each option<string> parameter
// flattens to (discriminant, pointer, length); the result goes back as a
// pointer to a pinned tool-result.
//
//go:wasmexport murmur:tool/run@0.1.0#run
func run(dataSome, dataPtr, dataLen, logSome, logPtr, logLen uint32) unsafe.Pointer {
	data, ok := cabi.OptString{Some: uint8(dataSome), Ptr: dataPtr, Len: dataLen}.Get()
	// The input is copied; earlier results are released even if the host
	// skipped their post-return call.
	abi.Unpin()

	res := abi.Pin(new(cabi.ToolResult))
	if !ok {
		res.Status = cabi.Failed
		res.Summary = cabi.Some("no input: pass the text to count as data")
		return unsafe.Pointer(res)
	}
	c := count(data)
	res.Status = cabi.Passed
	res.Summary = cabi.Some(plural(c.Words, "word") + ", " + plural(c.Lines, "line") + ", " +
		plural(c.Characters, "character"))
	res.Data = cabi.Some(c.json())
	res.Metadata = cabi.Pairs("state_effect", "read")
	return unsafe.Pointer(res)
}

// postRun releases what run handed over, once the host has lifted it.
//
//go:wasmexport cabi_post_murmur:tool/run@0.1.0#run
func postRun(unsafe.Pointer) { abi.Unpin() }
