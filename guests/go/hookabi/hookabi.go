//go:build wasip1

// Package hookabi is the canonical-ABI side of murmur:hook/lifecycle@0.5.0
// the first-party Go hooks share: reading the lowered event fields and
// writing a result<hook-output, string> for the host to lift.
package hookabi

import (
	"unsafe"

	"github.com/mur-go/mur/guests/go/cabi"
)

// Message is murmur:hook's message (and, by layout, a tool-manifest).
type Message struct {
	Role, Content string
}

// Str copies a lowered string.
func Str(ptr unsafe.Pointer, n uint32) string {
	if n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(ptr), n))
}

// OptStr copies a lowered option<string> ("" and false for none).
func OptStr(some uint32, ptr unsafe.Pointer, n uint32) (string, bool) {
	if some == 0 {
		return "", false
	}
	return Str(ptr, n), true
}

// pair is a record of two strings (message, tool-manifest): size 16.
type pair struct {
	aPtr, aLen, bPtr, bLen uint32
}

// Messages copies a lowered list<message>.
func Messages(ptr unsafe.Pointer, n uint32) []Message {
	out := make([]Message, n)
	for i, p := range unsafe.Slice((*pair)(ptr), n) {
		out[i] = Message{Str(unsafe.Pointer(uintptr(p.aPtr)), p.aLen), Str(unsafe.Pointer(uintptr(p.bPtr)), p.bLen)}
	}
	return out
}

// Strings copies a lowered list<string>.
func Strings(ptr unsafe.Pointer, n uint32) []string {
	type str struct{ ptr, len uint32 }
	out := make([]string, n)
	for i, s := range unsafe.Slice((*str)(ptr), n) {
		out[i] = Str(unsafe.Pointer(uintptr(s.ptr)), s.len)
	}
	return out
}

// Hook-output cases.
const (
	caseNone uint32 = iota
	caseReplaceContext
	caseWriteManifests
	caseArtifact
	caseReopenTask
)

// result is result<hook-output, string>: size 16, align 4.
type result struct {
	isErr uint8
	_     [3]byte
	a     uint32 // ok: the hook-output case; err: the string's pointer
	b, c  uint32
}

var _ = [1]struct{}{}[unsafe.Sizeof(result{})-16]

// Lower pins s and returns its pointer and length.
func Lower(s string) (uint32, uint32) {
	return uint32(uintptr(cabi.PinBytes([]byte(s)))), uint32(len(s))
}

func answer(r result) unsafe.Pointer { return unsafe.Pointer(cabi.Pin(&r)) }

// None is ok(none).
func None() unsafe.Pointer { return answer(result{a: caseNone}) }

// Err is err(msg).
func Err(msg string) unsafe.Pointer {
	p, n := Lower(msg)
	return answer(result{isErr: 1, a: p, b: n})
}

// ReopenTask is ok(reopen-task(reason)).
func ReopenTask(reason string) unsafe.Pointer {
	p, n := Lower(reason)
	return answer(result{a: caseReopenTask, b: p, c: n})
}

// LowerMessages pins ms as a list<message> and returns its pointer.
func LowerMessages(ms []Message) unsafe.Pointer {
	if len(ms) == 0 {
		return nil
	}
	list := make([]pair, len(ms))
	for i, m := range ms {
		list[i].aPtr, list[i].aLen = Lower(m.Role)
		list[i].bPtr, list[i].bLen = Lower(m.Content)
	}
	p := unsafe.Pointer(unsafe.SliceData(list))
	cabi.Pin((*pair)(p))
	return p
}

// ReplaceContext is ok(replace-context(ms)).
func ReplaceContext(ms []Message) unsafe.Pointer {
	return answer(result{a: caseReplaceContext, b: uint32(uintptr(LowerMessages(ms))), c: uint32(len(ms))})
}

// Begin starts a call: blocks pinned for the previous call's result, and
// the arguments the host lowered (already copied), are released.
func Begin() { cabi.Unpin() }
