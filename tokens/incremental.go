package tokens

import (
	"sync"

	"github.com/dlclark/regexp2"
)

// splitPattern is cl100k_base's pre-tokenizer, the pattern the codec
// splits with (tiktoken's published one).
const splitPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// resumeMargin is how far before the first difference a kept piece must
// end: a match is decided by its own characters plus at most the one it
// stops at and one of lookahead, so a piece ending this far back matches
// the same in both texts.
const resumeMargin = 4

// memoMax bounds the piece cache; past it the cache starts over.
const memoMax = 1 << 16

// slots is how many recent texts the cache keeps: the loop alternates
// between counting payloads and responses.
const slots = 2

// prefixCache makes counting a text that extends a recent one cost the
// new part only: the loop counts the whole conversation every turn, and
// each turn's payload shares all but its tail with the previous one. It
// keeps the recent texts' pieces (their end offsets, in runes, and the
// running token count) and the count of every piece seen.
type prefixCache struct {
	mu     sync.Mutex
	split  *regexp2.Regexp
	recent []pieces // most recent first
	memo   map[string]uint64
}

// pieces are one counted text split by the pattern.
type pieces struct {
	text []rune
	ends []int
	cum  []uint64
}

func newPrefixCache() *prefixCache {
	return &prefixCache{split: regexp2.MustCompile(splitPattern, regexp2.None), memo: map[string]uint64{}}
}

// count is the token count of s, pieces counted by piece.
func (p *prefixCache) count(s string, piece func(string) (uint64, error)) (uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	runes := []rune(s)
	best, common := -1, 0
	for i, r := range p.recent {
		n := 0
		for n < len(runes) && n < len(r.text) && runes[n] == r.text[n] {
			n++
		}
		if best < 0 || n > common {
			best, common = i, n
		}
	}
	var ends []int
	var cum []uint64
	if best >= 0 {
		r := p.recent[best]
		keep := 0
		for keep < len(r.ends) && r.ends[keep]+resumeMargin <= common {
			keep++
		}
		// Copies: the slot keeps its own pieces for texts still to come.
		ends, cum = append([]int(nil), r.ends[:keep]...), append([]uint64(nil), r.cum[:keep]...)
	}
	keep := len(ends)
	start, total := 0, uint64(0)
	if keep > 0 {
		start, total = ends[keep-1], cum[keep-1]
	}
	var tail *suffix
	if best >= 0 {
		tail = newSuffix(p.recent[best], runes)
	}
	m, err := p.split.FindRunesMatchStartingAt(runes, start)
	for ; err == nil && m != nil; m, err = p.split.FindNextMatch(m) {
		if tail.reuse(m.Index, &ends, &cum, &total) {
			break
		}
		text := m.String()
		n, ok := p.memo[text]
		if !ok {
			if n, err = piece(text); err != nil {
				break
			}
			if len(p.memo) >= memoMax {
				clear(p.memo)
			}
			p.memo[text] = n
		}
		total += n
		ends, cum = append(ends, m.Index+m.Length), append(cum, total)
	}
	if err != nil {
		return 0, err
	}
	if best >= 0 && common == len(p.recent[best].text) {
		// s extends that text: it takes its slot.
		p.recent = append(p.recent[:best], p.recent[best+1:]...)
	}
	p.recent = append([]pieces{{text: runes, ends: ends, cum: cum}}, p.recent[:min(len(p.recent), slots-1)]...)
	return total, nil
}

// suffix is what a new text shares with a recent one at its end. The
// pieces the scan finds from a position depend only on the text from
// there on, so once the scan of the new text reaches the start of a piece
// of the old one inside the shared end, the rest is the old text's.
type suffix struct {
	old    pieces
	shift  int // new offset − old offset
	starts map[int]int
}

func newSuffix(old pieces, runes []rune) *suffix {
	n := 0
	for n < len(runes) && n < len(old.text) && runes[len(runes)-1-n] == old.text[len(old.text)-1-n] {
		n++
	}
	starts := make(map[int]int, 64)
	for i := len(old.ends) - 1; i >= 0; i-- {
		at := 0
		if i > 0 {
			at = old.ends[i-1]
		}
		if len(old.text)-at > n {
			break
		}
		starts[at] = i
	}
	return &suffix{old: old, shift: len(runes) - len(old.text), starts: starts}
}

// reuse appends the old text's pieces from new offset at on, if a piece
// of it starts there within the shared end.
func (s *suffix) reuse(at int, ends *[]int, cum *[]uint64, total *uint64) bool {
	if s == nil {
		return false
	}
	i, ok := s.starts[at-s.shift]
	if !ok {
		return false
	}
	var before uint64
	if i > 0 {
		before = s.old.cum[i-1]
	}
	for j := i; j < len(s.old.ends); j++ {
		*ends = append(*ends, s.old.ends[j]+s.shift)
		*cum = append(*cum, *total+s.old.cum[j]-before)
	}
	*total += s.old.cum[len(s.old.cum)-1] - before
	return true
}
