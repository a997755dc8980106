package cli

import (
	"context"
	"errors"
)

// exitInterrupted is the status of a run cancelled without a signal: that
// of SIGINT (signalStatus gives 128 + the signal, as a shell reports it).
const exitInterrupted = 128 + 2

// cancelError is a run an interrupt or a signal stopped: never a success,
// whatever the capsule returned, and never reported as a failure either.
// quiet says the command's own output already says how the run ended
// (mur run's "status:  cancelled"), so no line is printed for it.
type cancelError struct {
	err    error
	status int
	quiet  bool
}

func (e *cancelError) Error() string   { return e.err.Error() }
func (e *cancelError) Unwrap() error   { return e.err }
func (e *cancelError) exitStatus() int { return e.status }

// asCancelled turns the outcome of a run whose ctx was cancelled from
// outside into a quiet cancelError (session.Run has already made it a
// cancelled run, and mur run prints that status); any other outcome is
// returned as it is.
func asCancelled(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	return &cancelError{err: err, status: cancelStatus(ctx), quiet: true}
}

// cancelStatus is the exit status for ctx's cancellation: the signal's
// when one caused it (watchInterrupts), else that of an interrupt.
func cancelStatus(ctx context.Context) int {
	var c *signalCause
	if errors.As(context.Cause(ctx), &c) {
		return signalStatus(c.sig)
	}
	return exitInterrupted
}
