package component

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// abandonGrace is how long a call may run on after its context ended (its
// deadline passed or the caller cancelled it) before the caller gets
// control back without it. A guest in a loop traps within one yield of
// the end; only a guest stuck in a host function that ignores its context
// (a blocking syscall, say) still runs after the grace.
const abandonGrace = time.Second

// errAbandoned ends a call, and everything the guest does afterwards,
// once the caller has stopped waiting for it.
var errAbandoned = errors.New("call abandoned after its deadline or cancellation: a host function did not return")

// abandonment is the state a call shares with the goroutine it runs on.
type abandonment struct {
	// guard is held while the call reads the caller's arguments, which the
	// caller owns again once it has abandoned the call; guest code (the
	// realloc a lowering calls) runs with it released. held says so; only
	// the call's own goroutine reads or writes it.
	guard sync.Mutex
	held  bool
	// abandoned is set, under guard, when the caller gives up; the call
	// then stops at its next return from guest or host code.
	abandoned atomic.Bool
	// stuck is closed when the abandoned call's goroutine ends; closing
	// the store waits for it. closeDeferred is set
	// once a Close has been arranged. Both belong to the caller's side.
	stuck         chan error
	closeDeferred bool
	// closed is closed once the deferred Close is done.
	closed chan struct{}
	// worker runs the watched calls; workerClosed is set once the store
	// is closed. Both belong to the caller's side.
	worker       *callWorker
	workerClosed bool
}

// run runs call, a call into the guest under ctx, so that the caller gets
// control back at most abandonGrace after ctx ends whatever the guest
// does: on the store's worker goroutine (callworker.go), abandoned
// (returning errAbandoned) if it has not returned by then. A call with no
// end, or one made from inside another call of the store (a host function
// calling back), runs inline: the outermost call watches over it.
func (s *Store) run(ctx context.Context, nested bool, call func() error) error {
	if runsInline(ctx, nested) {
		return call()
	}
	// done carries the call's error, then is closed: every later
	// receive (closing the store after an abandoned call) sees the end.
	done := make(chan error, 1)
	s.start(func() {
		defer close(done)
		defer func() {
			// A panic goes back to the caller's goroutine, as it would
			// have inline; an abandoned call's is dropped, not fatal.
			if r := recover(); r != nil {
				done <- &callPanic{r}
			}
		}()
		done <- call()
	})
	select {
	case err := <-done:
		return repanic(err)
	case <-ctx.Done():
	}
	grace := time.NewTimer(abandonGrace)
	defer grace.Stop()
	select {
	case err := <-done:
		return repanic(err)
	case <-grace.C:
	}
	a := &s.abandon
	a.guard.Lock()
	a.abandoned.Store(true)
	a.guard.Unlock()
	a.stuck = done
	return errAbandoned
}

// callPanic carries a panic of a call's goroutine to its caller.
type callPanic struct{ value any }

func (p *callPanic) Error() string { return fmt.Sprint("call panicked: ", p.value) }

// repanic panics again with a call's panic, or returns err.
func repanic(err error) error {
	if p, ok := err.(*callPanic); ok {
		panic(p.value)
	}
	return err
}

// runsInline reports whether run runs a call on the caller's goroutine.
func runsInline(ctx context.Context, nested bool) bool {
	return nested || ctx.Done() == nil
}

// abandoned reports whether the caller gave up on the running call.
func (s *Store) abandoned() bool { return s.abandon.abandoned.Load() }

// guard is taken while a call reads the caller's arguments (lowering
// them), and released by unguard: the call is abandoned either before or
// after the read, never during it.
func (s *Store) guard() {
	a := &s.abandon
	a.guard.Lock()
	a.held = true
}

func (s *Store) unguard() {
	a := &s.abandon
	a.held = false
	a.guard.Unlock()
}

// unguarded runs guest code called during a guarded step with the guard
// released, so the call can be abandoned while the guest runs, and fails
// with errAbandoned if it was.
func (s *Store) unguarded(guest func() error) error {
	a := &s.abandon
	if a.held {
		a.held = false
		a.guard.Unlock()
		defer func() {
			a.guard.Lock()
			a.held = true
		}()
	}
	err := guest()
	if s.abandoned() {
		return errAbandoned
	}
	return err
}

// closeAbandoned closes a store whose abandoned call may still be running:
// the store's modules and memories are released once the call's goroutine
// ends, not under it. It reports whether there was such a call.
func (s *Store) closeAbandoned(ctx context.Context) bool {
	a := &s.abandon
	if a.stuck == nil {
		return false
	}
	if !a.closeDeferred {
		a.closeDeferred = true
		a.closed = make(chan struct{})
		stuck, closed := a.stuck, a.closed
		ctx = context.WithoutCancel(ctx)
		go func() {
			defer close(closed)
			<-stuck
			s.closeAll(ctx)
		}()
	}
	return true
}
