package component_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// stuckHost defines test:host/block@0.1.0 for engine-host-block: wait
// signals entered, then blocks until release is closed, ignoring its
// context as a blocking syscall would; after records that the guest
// carried on.
type stuckHost struct {
	entered, release chan struct{}
	after            atomic.Bool
}

func newStuckHost(t *testing.T) (*stuckHost, *component.Linker) {
	t.Helper()
	h := &stuckHost{entered: make(chan struct{}), release: make(chan struct{})}
	var once sync.Once
	l := component.NewLinker()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.Define("test:host/block@0.1.0", "wait", &wit.Func{}, func(context.Context, *component.Store) error {
		once.Do(func() { close(h.entered) })
		<-h.release
		return nil
	}))
	must(l.Define("test:host/block@0.1.0", "after", &wit.Func{}, func(context.Context, *component.Store) error {
		h.after.Store(true)
		return nil
	}))
	return h, l
}

// A guest stuck in a host function that never returns must not keep its
// caller: the call ends with a DeadlineError (or the cancellation) shortly
// after its deadline (or cancellation), the store is poisoned and can be
// closed at once, and when the host function finally returns the guest
// does not carry on.
func TestStuckHostCallIsAbandoned(t *testing.T) {
	type run = func(ctx context.Context, inst *component.Instance) error
	dynamic := func(ctx context.Context, inst *component.Instance) error {
		f, err := inst.Func("run")
		if err != nil {
			return err
		}
		_, err = f.Call(ctx)
		return err
	}
	typed := func(ctx context.Context, inst *component.Instance) error {
		f, err := inst.Func("run")
		if err != nil {
			return err
		}
		tf, err := component.TypedFunc[struct{}, struct{}](f)
		if err != nil {
			return err
		}
		_, err = tf.Call(ctx, struct{}{})
		return err
	}
	cases := []struct {
		name     string
		deadline time.Duration
		cancel   bool
		call     run
	}{
		{"deadline", 50 * time.Millisecond, false, dynamic},
		{"deadline, typed", 50 * time.Millisecond, false, typed},
		{"cancellation", 0, true, dynamic},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, l := newStuckHost(t)
			s := &component.Store{Limits: component.Limits{Deadline: tc.deadline}}
			inst, err := l.Instantiate(t.Context(), compile(t, newEngine(t), "engine-host-block"), s)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				go func() {
					<-h.entered
					cancel()
				}()
			}
			result := make(chan error, 1)
			go func() { result <- tc.call(ctx, inst) }()
			select {
			case err = <-result:
			case <-time.After(30 * time.Second):
				close(h.release)
				t.Fatal("the call is still running 30 s after its deadline")
			}
			var dl *component.DeadlineError
			if tc.cancel {
				if !errors.Is(err, context.Canceled) || errors.As(err, &dl) {
					t.Fatalf("want the cancellation, got %v", err)
				}
			} else if !errors.As(err, &dl) {
				t.Fatalf("want a DeadlineError, got %v", err)
			}
			if err := tc.call(context.Background(), inst); !errors.Is(err, component.ErrPoisoned) {
				t.Fatalf("the store is not poisoned: %v", err)
			}
			// Closing must not wait for, nor pull memory from under, the
			// guest still inside the host function.
			if err := inst.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			close(h.release)
			component.WaitAbandoned(s)
			if h.after.Load() {
				t.Error("the guest carried on after its call was abandoned")
			}
		})
	}
}

// Instantiation runs start functions, guest code that may get stuck in a
// host function too: it ends with a DeadlineError shortly after the
// store's deadline, and the guest does not carry on afterwards.
func TestStuckInstantiationIsAbandoned(t *testing.T) {
	h, l := newStuckHost(t)
	c := compile(t, newEngine(t), "engine-host-block-start")
	s := &component.Store{Limits: component.Limits{Deadline: 50 * time.Millisecond}}
	result := make(chan error, 1)
	go func() {
		_, err := l.Instantiate(context.Background(), c, s)
		result <- err
	}()
	var err error
	select {
	case err = <-result:
	case <-time.After(30 * time.Second):
		close(h.release)
		t.Fatal("instantiation is still running 30 s after its deadline")
	}
	var dl *component.DeadlineError
	if !errors.As(err, &dl) || dl.Func != "instantiation" {
		t.Fatalf("want a DeadlineError in instantiation, got %v", err)
	}
	close(h.release)
	component.WaitAbandoned(s)
	if h.after.Load() {
		t.Error("the guest carried on after instantiation was abandoned")
	}
}
