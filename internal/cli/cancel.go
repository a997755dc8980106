package cli

import (
	"context"
	"errors"
	"syscall"

	"github.com/mur-go/mur/launch"
)

// Exit statuses of a cancelled run: 128 + the signal, as a shell reports a
// process that signal stopped.
const (
	exitInterrupted = 128 + 2  // SIGINT, and a cancellation without a signal
	exitTerminated  = 128 + 15 // SIGTERM
)

// cancelError is a run an interrupt or a signal stopped: never a success,
// whatever the capsule returned.
type cancelError struct {
	err    error
	status int
}

func (e *cancelError) Error() string   { return e.err.Error() }
func (e *cancelError) Unwrap() error   { return e.err }
func (e *cancelError) exitStatus() int { return e.status }

// asCancelled turns the outcome of a run whose ctx was cancelled from
// outside into a cancelError; any other outcome is returned as it is.
func asCancelled(ctx context.Context, err error) error {
	if ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return err
	}
	var le *launch.Error
	if !errors.As(err, &le) || le.Status != launch.StatusCancelled {
		err = &launch.Error{Code: launch.CodeRun, Status: launch.StatusCancelled, Err: err,
			Msg: "capsule run cancelled (" + context.Cause(ctx).Error() + ")"}
	}
	return &cancelError{err: err, status: cancelStatus(ctx)}
}

// cancelStatus is the exit status for ctx's cancellation. signal.NotifyContext
// records the signal only as its cause's text, so that text is what is
// compared.
func cancelStatus(ctx context.Context) int {
	if c := context.Cause(ctx); c != nil && c.Error() == syscall.SIGTERM.String()+" signal received" {
		return exitTerminated
	}
	return exitInterrupted
}
