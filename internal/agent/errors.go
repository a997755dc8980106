package agent

import "fmt"

// Kind says how an attempt failed, so callers can map it to a status.
type Kind int

// The ways an attempt fails.
const (
	// KindPrompt: the system prompt could not be resolved; nothing ran.
	KindPrompt Kind = iota + 1
	// KindTask: no task input to start from.
	KindTask
	// KindDriver: the driver could not be called, or answered a status
	// other than passed.
	KindDriver
	// KindResponse: the response was empty, unparsable, asked for tools
	// without naming any, or had a stop_reason the loop does not know.
	KindResponse
	// KindModelError: the response's stop_reason was error.
	KindModelError
	// KindMaxTurns: inference.max_turns ran out before end_turn.
	KindMaxTurns
	// KindCancelled: the context was cancelled.
	KindCancelled
	// KindIO: the outcome could not be written.
	KindIO
	// KindTrace: a trace record the attempt depends on could not be
	// written.
	KindTrace
	// KindCompaction: a compaction hook failed.
	KindCompaction
	// KindReopen: a hook asked to reopen the task past its budget.
	KindReopen
	// KindTool: a tool dispatch failed in a way that ends the session
	// (a shell runner error).
	KindTool
	// KindCredentialRejected (beyond Murmur 0.2.0): the provider refused
	// the key (HTTP 401 or 403, reported by the driver as error_class
	// credential_rejected). It has its own code because a retry cannot
	// help and the fix is the operator's: a wrong or expired
	// inference.api_key.
	KindCredentialRejected
	// KindSpendCeiling (beyond Murmur 0.2.0): inference.max_session_tokens
	// refused the next driver call; no retry helps.
	KindSpendCeiling
	// KindWorkdirCeiling: the workdir guard latched a total past
	// capabilities.resources.workdir_max_bytes (E-RUN-013).
	KindWorkdirCeiling
)

// Diagnostic codes (Murmur's).
const (
	CodeRun    = "E-RUN-001"
	CodeTask   = "E-RUN-007"
	CodePrompt = "E-RUN-009"
	// CodeWorkdir is the workdir ceiling's (security.md §12.3).
	CodeWorkdir = "E-RUN-013"
)

// Error is a failed attempt. Msg is what out/result.txt records after
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
	return &Error{Kind: kind, Code: CodeRun, Err: err, Msg: fmt.Sprintf(format, args...)}
}

// traceFailed is the attempt-fatal trace write error (session.md §10).
func traceFailed(err error) *Error {
	return &Error{Kind: KindTrace, Code: CodeTask, Err: err, Msg: fmt.Sprintf("trace write failed: %v", err)}
}
