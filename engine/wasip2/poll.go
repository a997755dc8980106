package wasip2

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"time"

	"github.com/mur-go/mur/engine/wit"
)

// pollSource is anything a pollable can wait on. state reports, atomically,
// whether it is ready and, if not, what to wait for: a channel closed when
// the state may have changed, and/or the time it becomes ready. Taking both
// in one call means a change between "not ready" and "start waiting" is
// never missed.
type pollSource interface {
	state() (ready bool, changed <-chan struct{}, at time.Time)
}

// alwaysReady is the source of operations that never block (files, bytes).
type alwaysReady struct{}

func (alwaysReady) state() (bool, <-chan struct{}, time.Time) { return true, nil, time.Time{} }

// neverReady is a source that never becomes ready (e.g. a socket the guest
// has no grant for); only the deadline releases a guest waiting on it.
type neverReady struct{}

func (neverReady) state() (bool, <-chan struct{}, time.Time) { return false, nil, time.Time{} }

// timerSource is ready from a point in time on.
type timerSource struct{ at time.Time }

func (t timerSource) state() (bool, <-chan struct{}, time.Time) {
	if !time.Now().Before(t.at) {
		return true, nil, time.Time{}
	}
	return false, nil, t.at
}

// signal is a broadcast for state changes made by background goroutines:
// waiters take the current channel, notify closes it.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait returns a channel closed at the next notify. Call it while holding
// the lock that guards the state being waited on.
func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

func (s *signal) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// pollable is the host object behind a wasi:io/poll pollable.
type pollable struct{ src pollSource }

// waitAny blocks until one of ps is ready or ctx ends, and returns the
// indices of the ready ones. Nothing spins: it sleeps on the sources'
// channels, the earliest timer and ctx.Done together.
func waitAny(ctx context.Context, ps []*pollable) (listOf[uint32], error) {
	for {
		var (
			ready    listOf[uint32]
			chans    []<-chan struct{}
			earliest time.Time
		)
		for i, p := range ps {
			ok, ch, at := p.src.state()
			if ok {
				if ready == nil {
					ready = make(listOf[uint32], 0, len(ps)-i)
				}
				ready = append(ready, uint32(i))
				continue
			}
			if ch != nil {
				chans = append(chans, ch)
			}
			if !at.IsZero() && (earliest.IsZero() || at.Before(earliest)) {
				earliest = at
			}
		}
		if len(ready) > 0 {
			return ready, nil
		}
		if err := sleep(ctx, chans, earliest); err != nil {
			return nil, err
		}
	}
}

// wait blocks until src is ready or ctx ends.
func wait(ctx context.Context, src pollSource) error {
	// Files and stdio are always ready: answer without waitAny's slices.
	if ok, _, _ := src.state(); ok {
		return nil
	}
	_, err := waitAny(ctx, []*pollable{{src: src}})
	return err
}

// sleep waits for any channel, the time at (if set) or ctx.
func sleep(ctx context.Context, chans []<-chan struct{}, at time.Time) error {
	var timer <-chan time.Time
	if !at.IsZero() {
		t := time.NewTimer(time.Until(at))
		defer t.Stop()
		timer = t.C
	}
	switch len(chans) {
	case 0:
		select {
		case <-ctx.Done():
			return ctxErr(ctx)
		case <-timer:
		}
		return nil
	case 1:
		select {
		case <-ctx.Done():
			return ctxErr(ctx)
		case <-timer:
		case <-chans[0]:
		}
		return nil
	}
	cases := make([]reflect.SelectCase, 0, len(chans)+2)
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())})
	if timer != nil {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(timer)})
	}
	for _, ch := range chans {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)})
	}
	if i, _, _ := reflect.Select(cases); i == 0 {
		return ctxErr(ctx)
	}
	return nil
}

// ctxErr is returned from a blocking host call whose call context ended;
// it traps the guest, and the engine reports a deadline as such.
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.New("wasip2: call context ended")
}

func (h *host) registerPoll() {
	const iface = "wasi:io/poll"
	t := h.t
	h.resource(iface, t.pollable)
	def1(h, iface, method("pollable", "ready"), fn(wit.Bool, self(t.pollable)), func(ctx context.Context, c *Ctx, p *pollable) (bool, error) {
		ok, _, _ := p.src.state()
		return ok, nil
	})
	def1(h, iface, method("pollable", "block"), fn(nil, self(t.pollable)), func(ctx context.Context, c *Ctx, p *pollable) (unit, error) {
		return unit{}, wait(ctx, p.src)
	})
	def1(h, iface, "poll", fn(list(wit.U32), param("in", list(borrow(t.pollable)))), func(ctx context.Context, c *Ctx, in listOf[*pollable]) (listOf[uint32], error) {
		if len(in) == 0 {
			return nil, errors.New("wasi:io/poll.poll: empty list of pollables")
		}
		return waitAny(ctx, in)
	})
}
