package timeline

import "github.com/mur-go/mur/internal/base/termtext"

// printable is s fit to show, on a terminal or in the page
// (termtext.Escape): text from a guest or a model can neither drive the
// terminal nor make what is read differ from what is there; newline and
// tab are kept unless oneLine.
func printable(s string, oneLine bool) string {
	return termtext.Escape(s, oneLine)
}
