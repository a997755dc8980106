package tokens

import (
	"slices"
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
//
// A served capsule counts at every task a request that differs from the
// last one only in the task text and, often, the same answer again, so
// the per-count work that is not the new part is kept to comparisons and
// copies: a repeat is answered from its slot, the shared end is found by
// binary search over the old pieces, and the slot a count evicts lends
// its arrays to the next text, which allocates nothing once they have
// grown to the texts' size.
type prefixCache struct {
	mu     sync.Mutex
	split  *regexp2.Regexp
	recent []pieces // most recent first
	spare  pieces   // an evicted slot, its arrays reused
	memo   map[string]uint64
}

// pieces are one counted text split by the pattern.
type pieces struct {
	s    string
	text []rune
	ends []int
	cum  []uint64
}

func (p pieces) total() uint64 {
	if len(p.cum) == 0 {
		return 0
	}
	return p.cum[len(p.cum)-1]
}

func newPrefixCache() *prefixCache {
	return &prefixCache{split: regexp2.MustCompile(splitPattern, regexp2.None), memo: map[string]uint64{}}
}

// count is the token count of s, pieces counted by piece.
func (p *prefixCache) count(s string, piece func(string) (uint64, error)) (uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, r := range p.recent {
		if r.s == s {
			p.recent = slices.Insert(slices.Delete(p.recent, i, i+1), 0, r)
			return r.total(), nil
		}
	}
	runes := p.spare.text[:0]
	for _, c := range s {
		runes = append(runes, c)
	}
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
	// The spare's arrays belong to no slot: the kept pieces are copied in.
	ends, cum := p.spare.ends[:0], p.spare.cum[:0]
	if best >= 0 {
		r := p.recent[best]
		keep := 0
		for keep < len(r.ends) && r.ends[keep]+resumeMargin <= common {
			keep++
		}
		ends, cum = append(ends, r.ends[:keep]...), append(cum, r.cum[:keep]...)
	}
	keep := len(ends)
	start, total := 0, uint64(0)
	if keep > 0 {
		start, total = ends[keep-1], cum[keep-1]
	}
	var tail suffix
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
		p.spare = pieces{text: runes, ends: ends, cum: cum}
		return 0, err
	}
	// s takes the slot of a text it extends, else the oldest once all
	// are taken.
	evict := -1
	switch {
	case best >= 0 && common == len(p.recent[best].text):
		evict = best
	case len(p.recent) == slots:
		evict = slots - 1
	}
	p.spare = pieces{}
	if evict >= 0 {
		p.spare = p.recent[evict]
		p.recent = slices.Delete(p.recent, evict, evict+1)
	}
	p.recent = slices.Insert(p.recent, 0, pieces{s: s, text: runes, ends: ends, cum: cum})
	return total, nil
}

// suffix is what a new text shares with a recent one at its end. The
// pieces the scan finds from a position depend only on the text from
// there on, so once the scan of the new text reaches the start of a piece
// of the old one inside the shared end, the rest is the old text's. The
// zero suffix shares nothing.
type suffix struct {
	old   pieces
	shift int // new offset − old offset
	first int // the old text's first piece that starts inside the shared end
}

func newSuffix(old pieces, runes []rune) suffix {
	n := 0
	for n < len(runes) && n < len(old.text) && runes[len(runes)-1-n] == old.text[len(old.text)-1-n] {
		n++
	}
	first := len(old.ends)
	for first > 0 && len(old.text)-pieceStart(old.ends, first-1) <= n {
		first--
	}
	return suffix{old: old, shift: len(runes) - len(old.text), first: first}
}

// pieceStart is where piece i of a text starts, given its pieces' ends.
func pieceStart(ends []int, i int) int {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}

// find is the old piece from first on that starts at old offset at.
func (s *suffix) find(at int) (int, bool) {
	ends := s.old.ends
	if s.first >= len(ends) {
		return 0, false
	}
	if s.first == 0 && at == 0 {
		return 0, true
	}
	// Piece i ≥ 1 starts at ends[i-1]; the ends only increase.
	from := max(s.first, 1)
	j, ok := slices.BinarySearch(ends[from-1:len(ends)-1], at)
	return from + j, ok
}

// reuse appends the old text's pieces from new offset at on, if a piece
// of it starts there within the shared end.
func (s *suffix) reuse(at int, ends *[]int, cum *[]uint64, total *uint64) bool {
	i, ok := s.find(at - s.shift)
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
