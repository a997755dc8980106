package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
)

// interruptGrace is how long mur lets a command interrupted by SIGINT or
// SIGTERM wind down before exiting anyway. The engine abandons a guest
// call stuck in the host one second after its cancellation; the rest
// leaves time to report it and clean up.
const interruptGrace = 3 * time.Second

// errInterrupted is what the cause of a command's context stopped by a
// signal matches (errors.Is).
var errInterrupted = errors.New("interrupted")

// signalCause is the cause of a command's context once a signal came.
type signalCause struct{ sig os.Signal }

func (c *signalCause) Error() string { return c.sig.String() + " signal received" }
func (c *signalCause) Unwrap() error { return errInterrupted }

// interrupts turns SIGINT and SIGTERM into the cancellation of a command,
// and the second signal, or the end of the grace after the first, into
// the end of the process with the status shells expect (128 + signal).
type interrupts struct {
	sigs    chan os.Signal
	stopped chan struct{}
	drain   *drainer
	// status is the exit status of the first signal; 0 before it.
	status atomic.Int32
}

// watchInterrupts returns a context cancelled at the first SIGINT or
// SIGTERM. At a second one, or grace after the first, it writes why to
// stderr and calls exit with the first signal's status, whatever the
// command is doing. Call stop when the command has returned.
func watchInterrupts(parent context.Context, grace time.Duration, stderr io.Writer, exit func(code int)) (context.Context, *interrupts) {
	ctx, cancel := context.WithCancelCause(parent)
	in := &interrupts{sigs: make(chan os.Signal, 2), stopped: make(chan struct{}), drain: &drainer{ch: make(chan struct{})}}
	ctx = context.WithValue(ctx, drainKey{}, in.drain)
	signal.Notify(in.sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer cancel(nil)
		var sig os.Signal
		select {
		case sig = <-in.sigs:
		case <-in.stopped:
			return
		}
		if in.drain.on.Load() {
			// A draining command ends by itself, status 0; only a second
			// signal stops it as the first would stop another command.
			close(in.drain.ch)
			fmt.Fprintf(stderr, "mur: %v: draining: finishing what runs, taking nothing new (signal again to stop it)\n", sig)
			select {
			case sig = <-in.sigs:
			case <-in.stopped:
				return
			}
		}
		code := signalStatus(sig)
		in.status.Store(int32(code))
		cancel(&signalCause{sig: sig})
		fmt.Fprintf(stderr, "mur: %v: stopping (signal again to exit at once)\n", sig)
		timer := time.NewTimer(grace)
		defer timer.Stop()
		why := fmt.Sprintf("still running %s after %v", grace, sig)
		select {
		case again := <-in.sigs:
			why = "second signal (" + again.String() + ")"
		case <-timer.C:
		case <-in.stopped:
			return
		}
		fmt.Fprintf(stderr, "mur: %s: exiting without waiting for the command to stop\n", why)
		exit(code)
	}()
	return ctx, in
}

// drainer lets a command take the first SIGINT or SIGTERM as "finish
// what you run and stop" (mur worker) instead of a cancellation.
type drainer struct {
	on atomic.Bool
	ch chan struct{}
}

type drainKey struct{}

// drainOnSignal makes the first signal close the returned channel instead
// of cancelling ctx; nil when ctx is not a command's (a test's own).
func drainOnSignal(ctx context.Context) <-chan struct{} {
	d, _ := ctx.Value(drainKey{}).(*drainer)
	if d == nil {
		return nil
	}
	d.on.Store(true)
	return d.ch
}

// exitStatus returns the status of the first signal, or 0 if none came.
func (in *interrupts) exitStatus() int { return int(in.status.Load()) }

// stop stops watching for signals.
func (in *interrupts) stop() {
	signal.Stop(in.sigs)
	close(in.stopped)
}

// signalStatus is the conventional exit status of a process ended by sig:
// 130 for SIGINT, 143 for SIGTERM.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitFailure
}
