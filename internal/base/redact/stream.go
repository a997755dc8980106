package redact

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Stream redacts a sequence of pieces that a reader puts back together
// (a task's text chunks, a guest's stdout): a secret split across any
// number of pieces at any offsets is caught. Write keeps back the tail
// that could begin a secret (at most the longest secret's length less
// one byte, and only while it matches a secret's start), never splitting
// a UTF-8 rune of a valid secret; Flush lets it go when the stream ends.
//
// Without a Flush in the middle of a secret, the pieces out put together
// are exactly Redactor.String of the pieces in put together. A Flush in
// the middle of one (a turn or call that ended there) sends its start;
// the stream remembers it, so the rest is replaced by Marker when it
// comes: what goes out never holds a secret either way.
//
// A Stream is not safe for concurrent use; its zero value holds no
// secret (see Redactor.Stream).
type Stream struct {
	r *Redactor
	// win is the end of the stream since the last redaction that could
	// begin a secret; its last held bytes have not gone out yet.
	win  string
	held int
}

// Stream returns a stream redactor over r's secrets, as a value to keep
// in whatever owns the stream.
func (r *Redactor) Stream() Stream { return Stream{r: r} }

// Held reports whether bytes are kept back.
func (s *Stream) Held() bool { return s.held > 0 }

// Write takes the next piece and returns what may go out now ("" when
// all of it is kept back).
func (s *Stream) Write(p string) string {
	m := s.r.load()
	if m == nil {
		if s.held > 0 {
			p = s.win[len(s.win)-s.held:] + p
		}
		s.win, s.held = "", 0
		return p
	}
	x := p
	if s.win != "" {
		x = s.win + p
	}
	// x[:sent] went out already; pos is the first byte not yet decided,
	// cut the end of the last redaction.
	sent := len(s.win) - s.held
	pos, cut := sent, 0
	var b *strings.Builder
	for start, end := m.next(x, 0); start >= 0; start, end = m.next(x, end) {
		if b == nil {
			b = &strings.Builder{}
		}
		if start > pos {
			b.WriteString(x[pos:start])
		}
		// An occurrence starting in what went out (after a Flush) loses
		// the rest of itself.
		b.WriteString(Marker)
		pos, cut = end, end
	}
	h := m.heldFrom(x, cut)
	for h > pos && h < len(x) && !utf8.RuneStart(x[h]) {
		h--
	}
	emit := max(h, pos)
	s.win, s.held = x[h:], len(x)-emit
	if b == nil {
		return x[pos:emit]
	}
	b.WriteString(x[pos:emit])
	return b.String()
}

// Flush returns the bytes kept back, at the end of the stream (or of a
// part a reader sees as whole: a driver call, a turn).
func (s *Stream) Flush() string {
	if s.held == 0 {
		return ""
	}
	out := s.win[len(s.win)-s.held:]
	s.held = 0
	return out
}

// Writer is an io.Writer that redacts a stream of writes to W (a guest's
// stdout or stderr); Flush at the end sends what it kept back. Safe for
// concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
	s  Stream
}

// Writer returns a redacting writer to w.
func (r *Redactor) Writer(w io.Writer) *Writer { return &Writer{w: w, s: Stream{r: r}} }

// Write redacts p; it reports all of p written once what may go out did.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.s.r.load() == nil && w.s.held == 0 {
		w.s.win = ""
		return w.w.Write(p)
	}
	if out := w.s.Write(string(p)); out != "" {
		if _, err := io.WriteString(w.w, out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what the stream kept back.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if out := w.s.Flush(); out != "" {
		_, err := io.WriteString(w.w, out)
		return err
	}
	return nil
}
