package process

import "fmt"

// Kind says how a run failed, so callers can map it to a status.
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

// Diagnostic codes (Murmur's).
const (
	CodeRun     = "E-RUN-001"
	CodeCommand = "E-RUN-006"
	CodeTrace   = "E-RUN-007"
)

// Error is a failed run. Msg is what out/result.txt records after
// "error: ".
type Error struct {
	Kind Kind
	Code string
	Msg  string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("error[%s]: %s", e.Code, e.Msg) }
func (e *Error) Unwrap() error { return e.Err }

func failure(kind Kind, err error, format string, args ...any) *Error {
	code := CodeRun
	switch kind {
	case KindCommand:
		code = CodeCommand
	case KindTrace:
		code = CodeTrace
	}
	return &Error{Kind: kind, Code: code, Err: err, Msg: fmt.Sprintf(format, args...)}
}
