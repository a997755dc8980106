// Package diag is mur's one coded error: a Murmur error code, the
// message, a hint that says what to do next, where in a file the problem
// is, and the cause. A package creates one where it knows the failure,
// callers wrap it with %w, and only the edges (the CLI, the A2A server)
// render it, finding it with errors.As.
package diag

import (
	"fmt"
	"strconv"
)

// Code is a Murmur error code, e.g. "E-MAN-003". Each package declares
// the codes it reports as constants, verbatim from Murmur so scripts and
// docs that match on them keep working.
type Code string

// Pos is where in a file a problem is. File is empty when the failure is
// not about a place in a file.
type Pos struct {
	File string
	// Path names the field ("artifacts[2].name"); it is for callers and
	// tests, and is not rendered.
	Path string
	// Line and Column are 1-based; 0 is unknown.
	Line, Column int
}

// String is "file", "file:line" or "file:line:col".
func (p Pos) String() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	case p.Line > 0:
		return p.File + ":" + strconv.Itoa(p.Line)
	}
	return p.File
}

// Error is a failure with its Murmur code. Msg is complete on its own
// (the cause's text is not appended), so Err may be a sentinel or a mark
// for errors.Is as well as the underlying failure.
type Error struct {
	Code Code
	Msg  string
	Hint string // may be empty
	Pos  Pos    // zero when the failure has no position
	Err  error  // cause, for errors.Is/As; may be nil
}

// New is a failure of code with the message format and args make.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Wrap is New with cause kept for errors.Is and errors.As; the message
// says what the cause means here (it may quote it).
func Wrap(code Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// WithHint sets the next step the user is told and returns e.
func (e *Error) WithHint(hint string) *Error {
	e.Hint = hint
	return e
}

// At sets the position and returns e.
func (e *Error) At(p Pos) *Error {
	e.Pos = p
	return e
}

// Error is the message, after the position when there is one: the text
// a message embedding this failure quotes. The code and the hint are
// rendered only at the edges (Render).
func (e *Error) Error() string {
	if e.Pos.File == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// render is Murmur's CLI form: "[pos: ]error[CODE]: message" and, when
// there is a hint, a second line "  hint: …".
func (e *Error) render() string {
	s := "error[" + string(e.Code) + "]: " + e.Msg
	if e.Pos.File != "" {
		s = e.Pos.String() + ": " + s
	}
	if e.Hint != "" {
		s += "\n  hint: " + e.Hint
	}
	return s
}
