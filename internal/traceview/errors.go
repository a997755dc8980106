package traceview

import "github.com/mur-go/mur/internal/base/diag"

// Murmur's codes for `mur trace`.
const (
	// CodeTrace is a trace that cannot be read as one: a bad line, no
	// events, no session_start or session_end (E-TRC-001).
	CodeTrace diag.Code = "E-TRC-001"
	// CodeSelect is a selector or selection that names no session, or
	// more than one (E-TRC-002).
	CodeSelect diag.Code = "E-TRC-002"
	// CodeNotFound is a trace file or workdir that does not exist.
	CodeNotFound diag.Code = "E-IO-001"
	// CodeIO is a file or directory that could not be read.
	CodeIO diag.Code = "E-IO-003"
)
