package agent

import (
	"errors"
	"strconv"

	"github.com/mur-go/mur/internal/agent/process"
	"github.com/mur-go/mur/internal/base/diag"
)

// Kind says how an attempt failed, so callers can map it to a status.
// Every failure of the loop is a coded error marked with its kind:
// errors.Is(err, agent.KindMaxTurns), or KindOf.
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

// Error makes a Kind a mark in a failure's chain; it is never the text a
// user sees.
func (k Kind) Error() string { return "agent failure kind " + strconv.Itoa(int(k)) }

// KindOf is the kind err is marked with, 0 when err is not a failure of
// the loop.
func KindOf(err error) Kind {
	var k Kind
	errors.As(err, &k)
	return k
}

// Diagnostic codes (Murmur's).
const (
	CodeRun    diag.Code = "E-RUN-001"
	CodeTask   diag.Code = "E-RUN-007"
	CodePrompt diag.Code = "E-RUN-009"
	// CodeWorkdir is the workdir ceiling's (security.md §12.3).
	CodeWorkdir diag.Code = "E-RUN-013"
)

// failure is a failed attempt, E-RUN-001: Msg is what out/result.txt
// records after "error: ".
func failure(kind Kind, err error, format string, args ...any) *diag.Error {
	return diag.Wrap(CodeRun, diag.Mark(err, kind), format, args...)
}

// traceFailed is the attempt-fatal trace write error (session.md §10).
func traceFailed(err error) *diag.Error {
	return diag.Wrap(CodeTask, diag.Mark(err, KindTrace), "trace write failed: %v", err)
}

// asFailure makes any error a failure of the loop, coded and marked with
// its kind: a failure of the loop (or of its agent CLI, marked in
// processError) as it is, anything else E-RUN-001 in its own words.
func asFailure(err error) error {
	if KindOf(err) != 0 {
		return err
	}
	return failure(KindIO, err, "%v", err)
}

// message is what out/result.txt records after "error: " for a failure:
// the message of its coded error.
func message(err error) string {
	var d *diag.Error
	if errors.As(err, &d) {
		return d.Msg
	}
	return err.Error()
}

// processError marks a failed CLI run with the loop's kind for it, so
// the caller maps it to a status as it does a driver's; its code and
// message stay the run's.
func processError(err error) error {
	kind := KindIO
	switch process.KindOf(err) {
	case 0:
		return failure(KindIO, err, "%v", err)
	case process.KindCancelled:
		kind = KindCancelled
	case process.KindMaxTurns:
		kind = KindMaxTurns
	case process.KindTrace:
		kind = KindTrace
	case process.KindIO:
	default:
		kind = KindDriver
	}
	return diag.Mark(err, kind)
}
