// Package tokens estimates token counts the way Murmur does (session.md
// §4): tiktoken's cl100k_base for every model and provider, with the BPE
// ranks compiled into the binary (no download at run time), and
// floor(bytes/4) when the encoder cannot run.
package tokens

import (
	"strings"
	"unicode/utf8"
)

// special are cl100k_base's special tokens. Murmur encodes with special
// tokens allowed, so each occurrence is one token; the codec does not
// know them, so Count cuts them out first.
var special = []string{"<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"}

// Counter counts tokens. The zero value counts floor(bytes/4). A Counter
// is safe for concurrent use.
type Counter struct {
	ranks  *rankTable
	prefix *prefixCache
}

// New returns a cl100k_base counter. Its ranks are read in place from the
// binary (ranks.go), so it costs nothing until it counts. It remembers
// the last text it counted, so counting one that extends it costs only
// the new part.
func New() *Counter {
	t := loadRanks(rankFile)
	return &Counter{ranks: &t, prefix: newPrefixCache()}
}

// Fallback is the floor(bytes/4) estimate.
func Fallback(s string) uint64 { return uint64(len(s)) / 4 }

// Count is the number of cl100k_base tokens in s, special tokens
// included; the fallback estimate if the encoder fails on s.
func (c *Counter) Count(s string) uint64 {
	if c == nil || c.ranks == nil {
		return Fallback(s)
	}
	if i, _ := nextSpecial(s); i < 0 {
		n, err := c.prefix.count(s, c.piece)
		if err != nil {
			return Fallback(s)
		}
		return n
	}
	var n uint64
	for {
		i, tok := nextSpecial(s)
		if i < 0 {
			break
		}
		m, err := c.prefix.count(s[:i], c.piece)
		if err != nil {
			return Fallback(s)
		}
		n += m + 1
		s = s[i+len(tok):]
	}
	m, err := c.prefix.count(s, c.piece)
	if err != nil {
		return Fallback(s)
	}
	return n + m
}

// maxPiece bounds the bytes BPE merges at once. Merging is quadratic in
// a piece's length, and a piece is as long as the longest run of letters
// (or spaces, or punctuation) in its text, which a task, a tool's output
// or a model's answer can make a megabyte long: a 128 KiB run took 17 s,
// a 1 MiB one would take minutes. A longer piece is counted in runs of at
// most maxPiece bytes cut at rune boundaries, which adds at most a token
// per cut to an estimate whose every token is at least a byte.
const maxPiece = 1 << 10

// piece counts one pre-tokenizer piece, a long one run by run. Each is
// merged whole, as tiktoken does: every alternative of the pattern that
// matched the piece in its text matches it alone, and so does each run of
// a long one, so splitting it again would give it back.
func (c *Counter) piece(p string) (uint64, error) {
	var n uint64
	for len(p) > maxPiece {
		cut := runEnd(p)
		n, p = n+uint64(c.ranks.count(p[:cut])), p[cut:]
	}
	return n + uint64(c.ranks.count(p)), nil
}

// runEnd is where the first run of a piece longer than maxPiece ends:
// at most maxPiece bytes in, at the start of a rune (or at maxPiece when
// the bytes there are no UTF-8).
func runEnd(p string) int {
	for cut := maxPiece; cut > maxPiece-utf8.UTFMax; cut-- {
		if utf8.RuneStart(p[cut]) {
			return cut
		}
	}
	return maxPiece
}

// nextSpecial finds the earliest special token in s.
func nextSpecial(s string) (int, string) {
	at, tok := -1, ""
	for _, t := range special {
		if i := strings.Index(s, t); i >= 0 && (at < 0 || i < at) {
			at, tok = i, t
		}
	}
	return at, tok
}
