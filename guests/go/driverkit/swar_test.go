package driverkit

import (
	"math/rand/v2"
	"testing"
)

// plainPrefix is plainWords by the definition, a byte at a time.
func plainPrefix(p []byte, html bool) int {
	n := 0
	for n < len(p) {
		c := p[n]
		if c < ' ' || c >= 0x80 || c == '"' || c == '\\' || (html && (c == '<' || c == '>' || c == '&')) {
			break
		}
		n++
	}
	return n &^ 7
}

// TestPlainWordsMatchesBytes puts every byte value at every position of
// a plain run (both rounds of the two-word loop and the one-word tail),
// and random mixes of specials, against the byte-at-a-time definition.
func TestPlainWordsMatchesBytes(t *testing.T) {
	base := []byte("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ")
	for _, html := range []bool{false, true} {
		for c := range 256 {
			for at := range len(base) {
				p := append([]byte(nil), base...)
				p[at] = byte(c)
				if got, want := plainWords(p, html), plainPrefix(p, html); got != want {
					t.Fatalf("html %v, byte %#x at %d: %d, want %d", html, c, at, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		p := make([]byte, rng.IntN(70))
		for i := range p {
			p[i] = byte(' ' + rng.IntN(95))
			if rng.IntN(40) == 0 {
				p[i] = byte(rng.IntN(256))
			}
		}
		for _, html := range []bool{false, true} {
			if got, want := plainWords(p, html), plainPrefix(p, html); got != want {
				t.Fatalf("html %v, %q: %d, want %d", html, p, got, want)
			}
		}
	}
}
