package traceview

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxText is how many characters of one name, id or reason a record
// keeps: far beyond any real one, it bounds what a hostile trace makes
// mur hold per line.
const maxText = 1000

// clean is s fit for a terminal: each control character (C0, DEL, C1)
// and each bidirectional override written as a Go escape (\x1b, \n,
// \u202e), so a trace cannot move the cursor, recolour or reorder what
// the user reads; cut to maxText characters with "…".
func clean(s string) string {
	if ok(s) {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxText {
			b.WriteString("…")
			break
		}
		n++
		if safe(r) {
			b.WriteRune(r)
			continue
		}
		// None of these is printable, so QuoteRune escapes each.
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// ok reports whether s needs no change: short enough and every
// character safe.
func ok(s string) bool {
	if len(s) > maxText && utf8.RuneCountInString(s) > maxText {
		return false
	}
	for _, r := range s {
		if !safe(r) {
			return false
		}
	}
	return true
}

func safe(r rune) bool {
	if unicode.IsControl(r) {
		return false
	}
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return false
	}
	return true
}
