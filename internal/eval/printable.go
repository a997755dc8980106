package eval

import "github.com/mur-go/mur/internal/base/termtext"

// Printable is s safe to print on a terminal (termtext.Escape, on one
// line). Every text mur eval prints from a file it read goes through it:
// eval files and datasets are untrusted, and an escape sequence in a
// scorer's name must not reach the terminal.
func Printable(s string) string {
	return termtext.Escape(s, true)
}
