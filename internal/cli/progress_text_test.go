package cli

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// What the model, a tool or a client wrote reaches the terminal as text
// only: one short line, no control or bidi character left to act on it.
func TestProgressBrief(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"  a\n\tb   c  ", 20, "a b c"},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"ab     cdefg", 6, "ab cd…"},
		{"\x1b]0;owned\a\x1b[2J", 40, "\uFFFD]0;owned\uFFFD\uFFFD[2J"},
		{"\u009b31m red", 40, "\uFFFD31m red"},
		{"safe\u202egnp.exe", 40, "safe\uFFFDgnp.exe"},
		{"bad \xff byte", 40, "bad \uFFFD byte"},
		{"ééééé", 4, "ééé…"},
	} {
		if got := brief(tc.in, tc.max); got != tc.want {
			t.Errorf("brief(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// Streamed text keeps its lines and tabs but nothing that moves the
// cursor or changes the terminal; a rune split across pieces is held
// until the piece that completes it.
func TestProgressStreamText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\n\tb", "a\n\tb"},
		{"over\rwrite", "overwrite"},
		{"\x1b[2J\x07\x08", "\uFFFD[2J\uFFFD\uFFFD"},
	} {
		if got := streamText(tc.in); got != tc.want {
			t.Errorf("streamText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	e := "é" // two bytes
	for _, tc := range []struct{ in, whole, tail string }{
		{"ab", "ab", ""},
		{"a" + e, "a" + e, ""},
		{"a" + e[:1], "a", e[:1]},
		{"€"[:2], "", "€"[:2]},
		{"\x80\x80\x80\x80", "\x80\x80\x80\x80", ""},
	} {
		if whole, tail := splitRune(tc.in); whole != tc.whole || tail != tc.tail {
			t.Errorf("splitRune(%q) = %q, %q; want %q, %q", tc.in, whole, tail, tc.whole, tc.tail)
		}
	}
}

func TestProgressSpans(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"}, {999 * time.Millisecond, "999ms"}, {time.Second, "1.0s"}, {59*time.Second + 940*time.Millisecond, "59.9s"},
		{61 * time.Second, "1m01s"}, {2*time.Hour + 5*time.Second, "120m05s"},
	} {
		if got := span(tc.d); got != tc.want {
			t.Errorf("span(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestProgressAnswerText(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`{"content":[{"type":"text","text":"a"},{"type":"tool_call","name":"x"},{"type":"text","text":"b"}]}`, "a b"},
		{`{"content":[{"type":"thinking","text":"hidden"}]}`, ""},
		{`not json`, ""},
		{`{"content":"text"}`, ""},
	} {
		if got := answerText(tc.raw); got != tc.want {
			t.Errorf("answerText(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// A driver's response is untrusted: whatever it holds, what progress
// shows of it is one valid line of at most briefAnswer characters with
// no control character.
func FuzzProgressAnswerText(f *testing.F) {
	f.Add(`{"content":[{"type":"text","text":"hi\u001b[2J"}]}`)
	f.Add(`{"content":[{"type":"text","text":"` + strings.Repeat("é", 200) + `"}]}`)
	f.Add(`{"content":[{"type":"text"`)
	f.Fuzz(func(t *testing.T, raw string) {
		s := brief(answerText(raw), briefAnswer)
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > briefAnswer || strings.ContainsAny(s, "\x1b\r\n\a\u009b") {
			t.Errorf("answerText(%q) shows as %q", raw, s)
		}
	})
}
