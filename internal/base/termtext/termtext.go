// Package termtext makes text that a guest, a model or a file chose fit
// to show a person: on a terminal, text can drive the screen (escape
// sequences move the cursor, recolour, retitle) and reorder what is read
// (bidirectional controls, zero-width and other format characters). mur
// shows such text in its progress, its answers, mur trace, mur eval and
// the HTML page of a run; one predicate decides for all of them what may
// not be shown as it is.
package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether r would act on a terminal or change what is
// read rather than show: C0 and C1 controls and DEL, the bidirectional
// controls, line and paragraph separators, and the format characters
// (zero-width joiners, soft hyphens, …). Newline and tab are unsafe
// only where a line must stay one (oneLine).
func Unsafe(r rune, oneLine bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return oneLine
	case r == unicode.ReplacementChar:
		return false
	case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r):
		return true
	}
	return unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cf)
}

// Escape is s with every unsafe rune written as a Go escape (\x1b,
// \u202e) and every byte that is not UTF-8 as \xNN, so what was there
// stays readable and nothing of it acts.
func Escape(s string, oneLine bool) string {
	if Safe(s, oneLine) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case Unsafe(r, oneLine):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// Safe reports whether Escape would leave s as it is.
func Safe(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Unsafe(r, oneLine) {
			return false
		}
		i += size
	}
	return true
}
