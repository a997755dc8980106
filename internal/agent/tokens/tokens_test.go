package tokens

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The plain-text counts are tiktoken cl100k_base's published encodings of
// these strings; a special token is one token wherever it occurs.
func TestCount(t *testing.T) {
	c := New()
	cases := []struct {
		in   string
		want uint64
	}{
		{"", 0},
		{"hello world", 2},
		{"hello   world", 3},
		{"supercalifragilistic", 7},
		{"We know what we are, but know not what we may be.", 14},
		{"a<|endoftext|>b", 3},
		{"<|endoftext|><|fim_prefix|>", 2},
	}
	for _, tc := range cases {
		if got := c.Count(tc.in); got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestFallback(t *testing.T) {
	var zero Counter
	for in, want := range map[string]uint64{"": 0, "abc": 0, "abcd": 1, "abcdefghi": 2} {
		if got := zero.Count(in); got != want {
			t.Errorf("zero Counter Count(%q) = %d, want %d", in, got, want)
		}
	}
}

// Counting texts that extend each other, share a prefix or differ early
// gives what the codec's own count of each whole text gives.
func TestIncrementalMatchesFullCount(t *testing.T) {
	base := `{"max_tokens":8192,"messages":[{"content":[{"text":"do it  now\n\n","type":"text"}],"role":"user"}`
	texts := []string{base + `],"model":"m"}`}
	for i := range 20 {
		base += fmt.Sprintf(`,{"content":[{"id":"c%d","input":{"q":"héllo wörld %d   "},"name":"echo","type":"tool_call"}],"role":"assistant"}`, i, i*37)
		texts = append(texts, base+`],"model":"m","tools":[]}`, base+"   \n\t x")
	}
	texts = append(texts, "a  b", "a  ", "a   b", "", "日本語のテキスト123456", "日本語のテキスト1234567", "b日本語のテキスト1234567",
		"x  \n\n  y  z", "x  \n\n  y  z", "xx  \n\n  y  z", "x   \n\n  y  z", "1234567", "12345678", "'s's", "a's's")
	inc, whole := New(), codec.NewCl100kBase()
	for _, s := range texts {
		want, err := whole.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := inc.Count(s); got != uint64(want) {
			t.Fatalf("incremental Count = %d, the codec's = %d for %q", got, want, s)
		}
	}
}

// Random texts edited at random places (so they share prefixes and
// suffixes of every length) count the same incrementally as whole.
func TestIncrementalRandomEdits(t *testing.T) {
	alphabet := []rune("ab Z9 \n\t'sé日,{}\"\r")
	rng := rand.New(rand.NewPCG(1, 2))
	inc, whole := New(), codec.NewCl100kBase()
	text := []rune("start")
	for range 2000 {
		at := rng.IntN(len(text) + 1)
		cut := min(at+rng.IntN(3), len(text))
		ins := make([]rune, rng.IntN(4))
		for i := range ins {
			ins[i] = alphabet[rng.IntN(len(alphabet))]
		}
		text = append(append(append([]rune{}, text[:at]...), ins...), text[cut:]...)
		s := string(text)
		want, err := whole.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := inc.Count(s); got != uint64(want) {
			t.Fatalf("incremental Count = %d, the codec's = %d for %q", got, want, s)
		}
	}
}

// Two chains of edited texts counted in turn, each text sometimes again
// (the loop's requests and answers), count the same as whole: a repeat,
// a slot taken over, an evicted slot's arrays reused for the next text.
func TestIncrementalInterleaved(t *testing.T) {
	alphabet := []rune("ab Z9 \n\t'sé日,{}\"\r")
	rng := rand.New(rand.NewPCG(3, 4))
	inc, whole := New(), codec.NewCl100kBase()
	chains := [][]rune{[]rune("request: do it"), []rune("answer 1")}
	for i := range 3000 {
		text := chains[i%2]
		if rng.IntN(3) > 0 {
			at := rng.IntN(len(text) + 1)
			cut := min(at+rng.IntN(3), len(text))
			ins := make([]rune, rng.IntN(5))
			for i := range ins {
				ins[i] = alphabet[rng.IntN(len(alphabet))]
			}
			text = append(append(append([]rune{}, text[:at]...), ins...), text[cut:]...)
			chains[i%2] = text
		}
		s := string(text)
		want, err := whole.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := inc.Count(s); got != uint64(want) {
			t.Fatalf("count %d: incremental Count = %d, the codec's = %d for %q", i, got, want, s)
		}
	}
}

// BenchmarkCountServed counts what a served capsule's loop counts at
// every task: a request that differs from the last one only in the task
// text inside it, then the driver's answer, the same every task.
func BenchmarkCountServed(b *testing.B) {
	head := `{"max_tokens":8192,"messages":[{"content":[{"text":"`
	tail := `","type":"text"}],"role":"user"}],"model":"scripted-model","params":{},"system":"` +
		strings.Repeat("You are a capsule agent. Use the tools you are given; answer briefly. ", 24) + `","tools":[]}`
	answer := `{"stop_reason":"end_turn","content":[{"type":"text","text":"bench answer"}]}`
	c := New()
	c.Count(answer)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c.Count(head + "task " + strconv.Itoa(i) + tail)
		c.Count(answer)
	}
}

// A long run of one kind of character (a task, a tool's output or an
// answer of a megabyte with no space in it) is one pre-tokenizer piece,
// which BPE merges in time quadratic in its length: it is counted in runs
// of at most maxPiece bytes, each cut at a rune boundary, with the count
// the codec gives a run short enough to count whole.
func TestLongPieceIsCountedInRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		piece string
	}{
		{"ascii", strings.Repeat("x", 3*maxPiece+7)},
		{"two-byte runes", strings.Repeat("é", 2*maxPiece)},
		{"three-byte runes", strings.Repeat("語", maxPiece)},
		{"not UTF-8", strings.Repeat("\x80", 2*maxPiece+1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cuts []string
			for p := tc.piece; len(p) > maxPiece; {
				end := runEnd(p)
				if end <= maxPiece-4 || end > maxPiece || utf8.ValidString(tc.piece) && !utf8.ValidString(p[:end]) {
					t.Fatalf("run ends at %d of %d: not the last rune start within %d bytes", end, len(p), maxPiece)
				}
				cuts = append(cuts, p[:end])
				p = p[end:]
			}
			if len(cuts) == 0 {
				t.Fatal("a piece longer than maxPiece was not cut")
			}
		})
	}
	c := New()
	run := strings.Repeat("x", maxPiece)
	whole, err := codec.NewCl100kBase().Count(run)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Count(strings.Repeat(run, 1024)); got != uint64(1024*whole) {
		t.Errorf("a 1 MiB run counts %d tokens, want %d", got, 1024*whole)
	}
}
