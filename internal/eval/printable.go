package eval

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable is s safe to print on a terminal: control characters (C0,
// DEL, C1), the bidirectional overrides and bytes that are not UTF-8
// written as Go escapes. Every text mur eval prints from a file it read
// goes through it: eval files and datasets are untrusted, and an escape
// sequence in a scorer's name must not reach the terminal.
func Printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escaped(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || escaped(r) {
			return true
		}
		i += size
	}
	return false
}

func escaped(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
