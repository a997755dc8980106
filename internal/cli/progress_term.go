package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// eraseLine appends to b the one control sequence progress writes, and
// only to a terminal: carriage return, then erase to the end of the
// line, which takes the status line away before the next line.
func eraseLine(b []byte) []byte { return append(b, "\r\x1b[K"...) }

// terminal reports whether w is a terminal, and its descriptor.
func terminal(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// redraws reports whether the terminal understands erasing a line:
// every one but TERM=dumb's (an editor's shell buffer), which gets the
// plain lines.
func redraws() bool { return os.Getenv("TERM") != "dumb" }

// termWidth is the terminal's width in columns, 80 when it cannot say.
func termWidth(fd int) func() int {
	return func() int {
		if w, _, err := term.GetSize(fd); err == nil && w > 0 {
			return w
		}
		return 80
	}
}
