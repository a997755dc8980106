package process

import (
	"errors"
	"strconv"

	"github.com/mur-go/mur/internal/base/diag"
)

// Kind says how a run failed, so callers can map it to a status. Every
// failure is marked with its kind: errors.Is(err, process.KindTimeout),
// or KindOf.
type Kind int

// The ways a run fails.
const (
	// KindCommand: inference.command is not on PATH; nothing ran.
	KindCommand Kind = iota + 1
	// KindSetup: the bridge, the environment or the process could not
	// be set up.
	KindSetup
	// KindCLI: the CLI exited non-zero, reported an error, or ended
	// without a result.
	KindCLI
	// KindMaxTurns: the CLI took more turns than inference.max_turns.
	KindMaxTurns
	// KindTimeout: the CLI ran past the timeout.
	KindTimeout
	// KindCancelled: the caller's context ended.
	KindCancelled
	// KindTrace: a trace record could not be written.
	KindTrace
	// KindIO: out/result.txt could not be written.
	KindIO
)

// Error makes a Kind a mark in a failure's chain; it is never the text a
// user sees.
func (k Kind) Error() string { return "agent CLI failure kind " + strconv.Itoa(int(k)) }

// KindOf is the kind err is marked with, 0 for none.
func KindOf(err error) Kind {
	var k Kind
	errors.As(err, &k)
	return k
}

// Diagnostic codes (Murmur's).
const (
	CodeRun     diag.Code = "E-RUN-001"
	CodeCommand diag.Code = "E-RUN-006"
	CodeTrace   diag.Code = "E-RUN-007"
)

// failure is a failed run: Msg is what out/result.txt records after
// "error: ".
func failure(kind Kind, err error, format string, args ...any) *diag.Error {
	code := CodeRun
	switch kind {
	case KindCommand:
		code = CodeCommand
	case KindTrace:
		code = CodeTrace
	}
	return diag.Wrap(code, diag.Mark(err, kind), format, args...)
}
