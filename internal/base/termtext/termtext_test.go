package termtext

import (
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct {
		name, in string
		oneLine  bool
		want     string
	}{
		{"plain", "héllo, wörld", true, "héllo, wörld"},
		{"CSI", "\x1b[2Jcleared", false, `\x1b[2Jcleared`},
		{"OSC title", "\x1b]0;pwned\x07", false, `\x1b]0;pwned\a`},
		{"C1 CSI", "\u009b31m", false, `\u009b31m`},
		{"DEL", "a\x7fb", false, `a\x7fb`},
		{"carriage return", "ok\rspoof", false, `ok\rspoof`},
		{"newline kept", "a\nb\tc", false, "a\nb\tc"},
		{"newline in one line", "a\nb\tc", true, `a\nb\tc`},
		{"bidi override", "abc\u202edcba", false, `abc\u202edcba`},
		{"bidi isolate", "\u2066x\u2069", false, `\u2066x\u2069`},
		{"zero-width joiner", "a\u200db", false, `a\u200db`},
		{"line separator", "a\u2028b", false, `a\u2028b`},
		{"invalid UTF-8", "a\xffb", false, `a\xffb`},
		{"replacement character", "a\uFFFDb", false, "a\uFFFDb"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Escape(c.in, c.oneLine); got != c.want {
				t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
			}
			if Safe(c.in, c.oneLine) != (c.in == c.want) {
				t.Errorf("Safe(%q) disagrees with Escape", c.in)
			}
		})
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "\x1b[2J", "a\u202eb", "\xff\xfe", "line\nline"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, oneLine bool) {
		out := Escape(s, oneLine)
		if !utf8.ValidString(out) || !Safe(out, oneLine) {
			t.Fatalf("Escape(%q) = %q, still unsafe", s, out)
		}
	})
}
