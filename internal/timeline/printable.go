package timeline

import (
	"strconv"
	"strings"
	"unicode"
)

// printable is s fit to show, on a terminal or in the page: every
// control character but newline and tab (and those too when oneLine),
// and every bidirectional control, written as a Go escape (\x1b, \u202e),
// so text from a guest or a model can neither drive the terminal nor
// make what is read differ from what is there.
func printable(s string, oneLine bool) string {
	if strings.IndexFunc(s, func(r rune) bool { return !safe(r, oneLine) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if safe(r, oneLine) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

func safe(r rune, oneLine bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return !oneLine
	case r == unicode.ReplacementChar:
		return true
	case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r):
		return false
	}
	// Line and paragraph separators, zero-width and other format
	// characters move or hide text as surely as the controls do.
	return !unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cf)
}
