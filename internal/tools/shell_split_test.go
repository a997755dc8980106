package tools

import (
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \t\n ", nil},
		{"-s http://example.com", []string{"-s", "http://example.com"}},
		{"  a   b\tc\nd  ", []string{"a", "b", "c", "d"}},
		{`a"b c"d`, []string{"ab cd"}},
		{`'one two' "three four"`, []string{"one two", "three four"}},
		{`""`, nil},
		{`x "" y`, []string{"x", "y"}},
		{`'a\'b'`, []string{"a'b"}},
		{`"it's"`, []string{"it's"}},
		{`'say "hi"'`, []string{`say "hi"`}},
		{`a\ b`, []string{"a b"}},
		{`"a\"b"`, []string{`a"b`}},
		{`a\\b`, []string{`a\b`}},
		{`trailing\`, []string{"trailing"}},
		{`"unterminated quote`, []string{"unterminated quote"}},
		{`$HOME ~ *.go | wc; rm -rf /`, []string{"$HOME", "~", "*.go", "|", "wc;", "rm", "-rf", "/"}},
		{"a\u00a0b\u2003c", []string{"a", "b", "c"}},
		{"héllo wörld", []string{"héllo", "wörld"}},
		{`\'quoted\'`, []string{"'quoted'"}},
	} {
		if got := SplitWords(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("SplitWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
