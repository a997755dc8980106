package driverkit

import "unsafe"

// Strings are scanned eight bytes at a time: in wasm, where the drivers
// run, a byte loop costs several nanoseconds a byte, so a 64 KiB message
// took half a millisecond to scan. Each word is tested for the bytes
// that end a plain run with the classic bit tricks (a byte below n sets
// its high bit in (x - n·lo) &^ x); a word with any of them is left to
// the byte loop, which is exact.
const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

func hasZero(x uint64) uint64 { return (x - lo) &^ x & hi }

// plainWords is the length of the longest prefix of p, a multiple of
// eight, holding only ASCII from space up, without a quote or a
// backslash, nor '<', '>' and '&' when html is set.
func plainWords(p []byte, html bool) int {
	n := 0
	for n+8 <= len(p) {
		x := *(*uint64)(unsafe.Pointer(&p[n]))
		bad := x&hi | (x-lo*' ')&^x&hi | hasZero(x^(lo*'"')) | hasZero(x^(lo*'\\'))
		if html {
			bad |= hasZero(x^(lo*'<')) | hasZero(x^(lo*'>')) | hasZero(x^(lo*'&'))
		}
		if bad != 0 {
			break
		}
		n += 8
	}
	return n
}
