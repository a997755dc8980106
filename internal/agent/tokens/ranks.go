package tokens

import (
	_ "embed"
	"math"
)

// cl100k.ranks is cl100k_base's BPE ranks as a table read in place
// (genranks.go describes the layout): it lives in the binary's read-only
// data, so a process builds nothing to count and the pages it touches are
// shared by every mur on the machine. The codec's own table is a Go map
// of 100k strings built at the first count, ~10 ms of CPU and MBs of heap
// in each capsule's first task.
//
//go:generate go run genranks.go cl100k.ranks
//go:embed cl100k.ranks
var rankFile string

// rankTable is a view of rankFile.
type rankTable struct {
	n, slots uint32
	offs     string // n+1 uint32
	table    string // slots uint32
	toks     string
}

func loadRanks(f string) rankTable {
	n, m := u32(f, 0), u32(f, 1)
	offs := f[8 : 8+4*(n+1)]
	table := f[8+4*(n+1) : 8+4*(n+1)+4*m]
	return rankTable{n: n, slots: m, offs: offs, table: table, toks: f[8+4*(n+1)+4*m:]}
}

func u32(s string, i uint32) uint32 {
	s = s[4*i : 4*i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// rank is the rank of token s, or math.MaxUint32 when s is no token.
func (t *rankTable) rank(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	mask := t.slots - 1
	for h &= mask; ; h = (h + 1) & mask {
		r := u32(t.table, h)
		if r == 0 {
			return math.MaxUint32
		}
		r--
		if t.toks[u32(t.offs, r):u32(t.offs, r+1)] == s {
			return r
		}
	}
}

// count is the number of tokens byte-pair encoding gives piece: starting
// from its bytes, the adjacent pair whose concatenation has the lowest
// rank (the leftmost of equals) is merged until no pair is a token.
func (t *rankTable) count(piece string) int {
	if piece == "" {
		return 0
	}
	if t.rank(piece) != math.MaxUint32 {
		return 1
	}
	// starts[i] is where part i begins; pair[i] the rank of parts i and
	// i+1 joined.
	starts := make([]int, len(piece)+1)
	for i := range starts {
		starts[i] = i
	}
	pair := make([]uint32, len(piece))
	joined := func(i int) uint32 {
		if i+2 >= len(starts) {
			return math.MaxUint32
		}
		return t.rank(piece[starts[i]:starts[i+2]])
	}
	for i := range pair {
		pair[i] = joined(i)
	}
	for len(starts) > 2 {
		best, at := uint32(math.MaxUint32), -1
		for i, r := range pair[:len(starts)-2] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		starts = append(starts[:at+1], starts[at+2:]...)
		pair = append(pair[:at+1], pair[at+2:]...)
		pair[at] = joined(at)
		if at > 0 {
			pair[at-1] = joined(at - 1)
		}
	}
	return len(starts) - 1
}
