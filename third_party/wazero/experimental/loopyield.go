package experimental

import (
	"context"

	"github.com/tetratelabs/wazero/internal/expctxkeys"
)

// LoopYield (a mur patch) has the compiler count the loop iterations of
// every call, and leave the compiled code every Every of them to run
// Yield, with every register kept: the check is emitted after register
// allocation, so it costs the loop no spills.
type LoopYield struct {
	// Every is how many loop iterations a call runs between two runs of
	// Yield. A call's first yield may come sooner.
	Every uint32
	// Yield runs on the goroutine of the call, with the call's context.
	// A non-nil error ends the call with it, as a host function panicking
	// with it would.
	Yield func(ctx context.Context) error
}

// WithLoopYield returns a context that, given to
// wazero.NewRuntimeWithConfig, makes the runtime's compiler emit the
// checks of y. Only the compiler on amd64 implements them
// (wazero.LoopYieldSupported); elsewhere, and with the interpreter, y is
// ignored.
// Code compiled with and without the checks is cached under different
// keys.
func WithLoopYield(ctx context.Context, y LoopYield) context.Context {
	return context.WithValue(ctx, expctxkeys.LoopYield{}, y)
}
