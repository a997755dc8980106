package launch

import (
	"context"
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
)

// cancelled reports whether ctx was cancelled from outside (an interrupt,
// a signal, the caller) rather than by a deadline.
func cancelled(ctx context.Context) bool {
	err := ctx.Err()
	return err != nil && !errors.Is(err, context.DeadlineExceeded)
}

// cancelledError is a run stopped by ctx's cancellation. It holds even
// when the capsule returned normally: once ctx is done every later host
// call fails, so a capsule that swallows those errors has not succeeded.
func cancelledError(ctx context.Context, err error) *diag.Error {
	cause := context.Cause(ctx)
	if err == nil {
		err = cause
	}
	return &diag.Error{Code: CodeRun, Err: diag.Mark(err, ErrCancelled),
		Msg:  fmt.Sprintf("capsule run cancelled (%v); its work is incomplete", cause),
		Hint: "the session directory keeps what the capsule wrote before it was stopped"}
}
