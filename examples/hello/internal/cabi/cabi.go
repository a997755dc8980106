//go:build wasip1

// Package cabi is the memory layout of murmur:tool@0.1.0's records as the
// example's two Go guests lower and lift them. The allocator the host calls
// (cabi_realloc) and the pinning of blocks handed to the host come from the
// Go guests' shared package, github.com/mur-go/mur/guests/go/cabi.
package cabi

import (
	"unsafe"

	abi "github.com/mur-go/mur/guests/go/cabi"
)

// Addr is p as a 32-bit linear-memory offset.
func Addr(p unsafe.Pointer) uint32 { return uint32(uintptr(p)) }

// String copies len bytes at ptr into a Go string.
func String(ptr, n uint32) string {
	if n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(at(ptr)), n))
}

// at is linear-memory offset addr as a pointer (the inverse of Addr).
func at(addr uint32) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), addr) }

// OptString is a lowered option<string>: discriminant byte at 0, pointer
// at 4, length at 8 (size 12, align 4).
type OptString struct {
	Some uint8
	_    [3]byte
	Ptr  uint32
	Len  uint32
}

// Some copies s into a pinned block and returns it as some(s).
func Some(s string) OptString {
	return OptString{Some: 1, Ptr: Addr(abi.PinBytes([]byte(s))), Len: uint32(len(s))}
}

// Get lifts o: the string and whether it was some.
func (o OptString) Get() (string, bool) {
	if o.Some == 0 {
		return "", false
	}
	return String(o.Ptr, o.Len), true
}

// List is a lowered list: pointer, element count.
type List struct {
	Ptr, Len uint32
}

// Pair is one lowered tuple<string, string>.
type Pair struct {
	KeyPtr, KeyLen, ValPtr, ValLen uint32
}

// Pairs lowers kv (key, value, key, value, ...) into a pinned list.
func Pairs(kv ...string) List {
	if len(kv) == 0 {
		return List{}
	}
	ps := make([]Pair, len(kv)/2)
	for i := range ps {
		k, v := Some(kv[2*i]), Some(kv[2*i+1])
		ps[i] = Pair{k.Ptr, k.Len, v.Ptr, v.Len}
	}
	return List{Addr(unsafe.Pointer(abi.Pin(&ps[0]))), uint32(len(ps))}
}

// Status values of murmur:tool/run's status enum.
const (
	Passed uint8 = iota
	Failed
	Error
)

// StatusName is the WIT spelling of a status.
func StatusName(s uint8) string {
	switch s {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case Error:
		return "error"
	}
	return "unknown"
}

// ToolResult is murmur:tool@0.1.0's tool-result as laid out in memory
// (size 52, align 4); the comments give the canonical offsets.
type ToolResult struct {
	Status    uint8 // 0
	_         [3]byte
	Summary   OptString // 4
	Data      OptString // 16
	DataPath  OptString // 28
	Truncated uint8     // 40
	_         [3]byte
	Metadata  List // 44
}

// Compile-time size check: the array index is negative unless it is 52.
var _ = [1]struct{}{}[unsafe.Sizeof(ToolResult{})-52]

// MetadataPairs lifts the result's metadata list.
func (r *ToolResult) MetadataPairs() [][2]string {
	if r.Metadata.Len == 0 {
		return nil
	}
	ps := unsafe.Slice((*Pair)(at(r.Metadata.Ptr)), r.Metadata.Len)
	out := make([][2]string, len(ps))
	for i, p := range ps {
		out[i] = [2]string{String(p.KeyPtr, p.KeyLen), String(p.ValPtr, p.ValLen)}
	}
	return out
}
