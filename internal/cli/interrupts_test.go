//go:build unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer the signal goroutine can write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A first signal cancels the command; a second one, or the grace after the
// first, ends the process with 128 + the first signal even though the
// command (here: nothing) never returns. Real signals are sent to the test
// process, which the watcher has taken over.
func TestInterruptsEndTheProcess(t *testing.T) {
	cases := []struct {
		name   string
		sig    syscall.Signal
		second bool
		grace  time.Duration
		want   int
		why    string
	}{
		{"SIGINT twice", syscall.SIGINT, true, time.Hour, 130, "second signal"},
		{"SIGTERM twice", syscall.SIGTERM, true, time.Hour, 143, "second signal"},
		{"SIGTERM and a stuck command", syscall.SIGTERM, false, time.Millisecond, 143, "still running"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exited := make(chan int, 1)
			var stderr lockedBuffer
			ctx, in := watchInterrupts(context.Background(), tc.grace, &stderr, func(code int) { exited <- code })
			defer in.stop()
			if err := syscall.Kill(syscall.Getpid(), tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(30 * time.Second):
				t.Fatal("the signal did not cancel the command")
			}
			if !errors.Is(context.Cause(ctx), errInterrupted) || in.exitStatus() != tc.want {
				t.Fatalf("cause %v, status %d; want interrupted, %d", context.Cause(ctx), in.exitStatus(), tc.want)
			}
			if tc.second {
				if err := syscall.Kill(syscall.Getpid(), tc.sig); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case code := <-exited:
				if code != tc.want {
					t.Errorf("exit %d, want %d", code, tc.want)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the process was not ended")
			}
			if !strings.Contains(stderr.String(), tc.why) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.why)
			}
		})
	}
}

// A command that returns before any signal leaves the status alone and
// the process running.
func TestNoInterruptLeavesTheStatus(t *testing.T) {
	exited := make(chan int, 1)
	ctx, in := watchInterrupts(context.Background(), time.Millisecond, &lockedBuffer{}, func(code int) { exited <- code })
	in.stop()
	if in.exitStatus() != 0 {
		t.Fatalf("status %d without a signal", in.exitStatus())
	}
	<-ctx.Done() // stop releases the context
	select {
	case code := <-exited:
		t.Fatalf("exit %d without a signal", code)
	default:
	}
}
