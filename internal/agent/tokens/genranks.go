//go:build ignore

// genranks writes cl100k.ranks, the table the tokens package looks
// ranks up in, from the tiktoken-go codec's cl100k_base vocabulary. Run
// by go generate (ranks.go).
//
// The file is three little-endian arrays: the token count n and the
// table size m (uint32 each); n+1 uint32 offsets into the token bytes,
// token r being bytes[off[r]:off[r+1]]; m uint32 slots of an
// open-addressed table (FNV-1a of the token, linear probing) holding
// r+1, 0 for empty; then the tokens' bytes in rank order.
package main

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/tiktoken-go/tokenizer/codec"
)

// ranks is cl100k_base's token count (its ids 0..ranks-1, no gaps; the
// special tokens come after and are counted apart).
const ranks = 100256

// slots is the table size: a power of two over twice the tokens, so
// probes stay short.
const slots = 1 << 18

func fnv(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	c := codec.NewCl100kBase()
	var toks []byte
	offs := make([]uint32, 0, ranks+1)
	table := make([]uint32, slots)
	seen := map[string]bool{}
	for r := range ranks {
		s, err := c.Decode([]uint{uint(r)})
		if err != nil {
			return fmt.Errorf("rank %d: %w", r, err)
		}
		if s == "" || seen[s] {
			return fmt.Errorf("rank %d: empty or repeated token %q", r, s)
		}
		seen[s] = true
		offs = append(offs, uint32(len(toks)))
		toks = append(toks, s...)
		h := fnv(s) & (slots - 1)
		for table[h] != 0 {
			h = (h + 1) & (slots - 1)
		}
		table[h] = uint32(r + 1)
	}
	offs = append(offs, uint32(len(toks)))
	if _, err := c.Decode([]uint{ranks}); err == nil {
		return fmt.Errorf("rank %d decodes: the vocabulary grew", ranks)
	}
	b := binary.LittleEndian.AppendUint32(nil, ranks)
	b = binary.LittleEndian.AppendUint32(b, slots)
	for _, o := range offs {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	for _, t := range table {
		b = binary.LittleEndian.AppendUint32(b, t)
	}
	b = append(b, toks...)
	return os.WriteFile(out, b, 0o644)
}
