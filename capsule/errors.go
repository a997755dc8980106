package capsule

import (
	"errors"

	"github.com/mur-go/mur/internal/base/diag"
)

// Error is a failure mur names with a Murmur code, found with errors.As
// on any error Run, Serve, Install or Call returns:
//
//	var e *capsule.Error
//	if errors.As(err, &e) && e.Code == "E-CAP-003" { … }
//
// The codes are Murmur's (E-MAN-… for the manifest, E-CAP-… for
// capabilities, E-REG-… for registries and stores, E-RUN-… for the run),
// so what is written for Murmur's diagnostics applies.
type Error struct {
	// Code is the Murmur code, e.g. "E-MAN-003".
	Code string
	// Message says what happened; Hint, when not empty, what to do next.
	Message, Hint string
	// File, Line and Column are where in a file the problem is (a
	// manifest field); File is "" when the failure has no place, and
	// Line and Column are 0 when unknown.
	File         string
	Line, Column int

	err error
}

// Error is the failure's whole text, the words of every wrapper and of
// every failure joined beside it, without codes or hints.
func (e *Error) Error() string { return e.err.Error() }

// Unwrap is the failure as the runtime reported it, for errors.Is.
func (e *Error) Unwrap() error { return e.err }

// coded is err with its first coded failure read into an *Error; an err
// with none is returned as it is. Where the run's redactor wraps err, the
// fields are redacted as the text is.
func coded(err error) error {
	var d *diag.Error
	if err == nil || !errors.As(err, &d) {
		return err
	}
	e := &Error{Code: string(d.Code), Message: d.Msg, Hint: d.Hint,
		File: d.Pos.File, Line: d.Pos.Line, Column: d.Pos.Column, err: err}
	var rw diag.Rewriter
	if errors.As(err, &rw) {
		e.Message, e.Hint, e.File = rw.Rewrite(e.Message), rw.Rewrite(e.Hint), rw.Rewrite(e.File)
	}
	return e
}
