package traceview

import (
	"unicode/utf8"

	"github.com/mur-go/mur/internal/base/termtext"
)

// maxText is how many characters of one name, id or reason a record
// keeps: far beyond any real one, it bounds what a hostile trace makes
// mur hold per line.
const maxText = 1000

// clean is s fit for a terminal (termtext.Escape, on one line), so a
// trace cannot move the cursor, recolour or reorder what the user reads;
// cut to maxText characters with "…".
func clean(s string) string {
	if len(s) > maxText && utf8.RuneCountInString(s) > maxText {
		n := 0
		for i := range s {
			if n == maxText {
				return termtext.Escape(s[:i], true) + "…"
			}
			n++
		}
	}
	return termtext.Escape(s, true)
}
