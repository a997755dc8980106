package tokens

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The table in the binary is the codec's vocabulary: every token has its
// rank, and nothing else is a token (go generate rebuilds it).
func TestRankTableIsTheCodecs(t *testing.T) {
	tab, c := loadRanks(rankFile), codec.NewCl100kBase()
	for r := range tab.n {
		s, err := c.Decode([]uint{uint(r)})
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
		if got := tab.rank(s); got != r {
			t.Fatalf("rank(%q) = %d, want %d", s, got, r)
		}
	}
	if _, err := c.Decode([]uint{uint(tab.n)}); err == nil {
		t.Fatalf("the codec has a token of rank %d: the table is stale", tab.n)
	}
	for _, s := range []string{"", "\x00\x00\x00\x00\x00\x00\x00\x00x", "supercalifragilistic"} {
		if got := tab.rank(s); got != math.MaxUint32 {
			t.Errorf("rank(%q) = %d, want none", s, got)
		}
	}
}

// Byte-pair merging gives the codec's count for pieces of every kind:
// words, runs of one byte, mixed scripts and bytes that are no UTF-8.
func TestMergeMatchesCodec(t *testing.T) {
	c, tab := codec.NewCl100kBase(), loadRanks(rankFile)
	alphabet := []string{"a", "b", "z", "Q", "é", "語", "ü", "1", "!", " ", "\n", "\x80", "\xff", "ing", "tion", "'"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var p string
		for range 1 + rng.IntN(24) {
			p += alphabet[rng.IntN(len(alphabet))]
		}
		want, err := c.Count(p)
		if err != nil {
			t.Fatal(err)
		}
		// The codec splits p first; merging is per piece.
		var got int
		for _, piece := range splitPieces(t, p) {
			got += tab.count(piece)
		}
		if got != want {
			t.Fatalf("count(%q) = %d, the codec's = %d", p, got, want)
		}
	}
}

func splitPieces(t *testing.T, s string) []string {
	t.Helper()
	re := newPrefixCache().split
	var out []string
	m, err := re.FindStringMatch(s)
	for ; err == nil && m != nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}
