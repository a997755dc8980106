// Package diag is the error form every mur command prints: a Murmur error
// code, the message, and a hint that says what to do next.
package diag

// Error is a failure with its Murmur code (e.g. "E-REG-002") and a
// next-step hint.
type Error struct {
	Code string
	Msg  string // complete message, without the code
	Hint string // may be empty
	Err  error  // cause, for errors.Is/As; may be nil
}

// Error renders Murmur's CLI form; see Format.
func (e *Error) Error() string { return Format(e.Code, e.Msg, e.Hint) }

func (e *Error) Unwrap() error { return e.Err }

// Diagnostic returns the code and hint.
func (e *Error) Diagnostic() (code, hint string) { return e.Code, e.Hint }

// Format is "error[CODE]: message" and, when there is a hint, a second
// line "  hint: …".
func Format(code, msg, hint string) string {
	s := "error[" + code + "]: " + msg
	if hint != "" {
		s += "\n  hint: " + hint
	}
	return s
}
