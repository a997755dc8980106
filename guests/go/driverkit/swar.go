package driverkit

import "unsafe"

// Strings are scanned eight bytes at a time: in wasm, where the drivers
// run, a byte loop costs several nanoseconds a byte, so a 64 KiB message
// took half a millisecond to scan. Each word is tested for the bytes
// that end a plain run with the classic bit tricks; a word with any of
// them is left to the byte loop, which is exact.
const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

// plainWords is the length of the longest prefix of p, a multiple of
// eight, holding only ASCII from space up, without a quote or a
// backslash, nor '<', '>' and '&' when html is set.
func plainWords(p []byte, html bool) int {
	n, end := 0, len(p)&^7
	base := unsafe.Pointer(unsafe.SliceData(p))
	// Two words a round: in wasm the loop's own bookkeeping costs about
	// as much as one word's test.
	for n+16 <= end {
		x := *(*uint64)(unsafe.Add(base, n))
		y := *(*uint64)(unsafe.Add(base, n+8))
		if (special(x, html) | special(y, html)) != 0 {
			break
		}
		n += 16
	}
	for n < end && special(*(*uint64)(unsafe.Add(base, n)), html) == 0 {
		n += 8
	}
	return n
}

// special is non-zero when the word holds a byte that is not plain. It
// needs fewer operations than a zero-byte test per class (b - 1 sets the
// high bit of a byte that was zero, and of no other byte below 0x81) by
// testing the high bits once, at the end: a word with any byte from 0x80
// up is special anyway, and a borrow from one byte into the next only
// follows a byte that matched, so it never makes a plain word special.
func special(x uint64, html bool) uint64 {
	b := x | (x - lo*' ') | ((x ^ lo*'"') - lo) | ((x ^ lo*'\\') - lo)
	if html {
		b |= ((x ^ lo*'<') - lo) | ((x ^ lo*'>') - lo) | ((x ^ lo*'&') - lo)
	}
	return b & hi
}
