package tokens

import "testing"

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
