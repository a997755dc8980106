package a2a

import (
	"context"
	"fmt"
	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// events yields rec's log from index from, waiting for more, until ctx
// ends; after a terminal state it yields what is left and stops.
func (g *registry) events(ctx context.Context, rec *record, from int) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		next := from
		for {
			g.mu.Lock()
			batch := rec.log[min(next, len(rec.log)):]
			next = len(rec.log)
			done := rec.terminal()
			var wake <-chan struct{}
			if !done {
				wake = rec.nextEvent()
			}
			g.mu.Unlock()
			for _, ev := range batch {
				if !yield(ev, nil) {
					return
				}
			}
			if done {
				return
			}
			select {
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			case <-wake:
			}
		}
	}
}

// await waits until rec logs a final event at or after index from (the
// task ended or needs input) or ends, or ctx ends: what a blocking send
// waits for, woken by nothing else.
func (g *registry) await(ctx context.Context, rec *record, from int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		for ; from < len(rec.log); from++ {
			if final(rec.log[from]) {
				return nil
			}
		}
		if rec.terminal() {
			return nil
		}
		wake := rec.nextFinal()
		g.mu.Unlock()
		select {
		case <-ctx.Done():
			g.mu.Lock()
			return ctx.Err()
		case <-wake:
		}
		g.mu.Lock()
	}
}

// submitted is the first event of a stream: the new task as submitted, or
// the answered task as it stands.
func (g *registry) submitted(sub submission) (*a2a.Task, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t := sub.rec.snapshot(nil)
	if sub.from == 0 {
		t.Status.State = a2a.TaskStateSubmitted
		t.Status.Message = nil
		t.Artifacts = nil
		t.History = t.History[:min(1, len(t.History))]
	}
	return t, nil
}

// resume is SubscribeToTask's start: the snapshot and the log index it
// covers, holding rec until the caller releases it. A finished task has
// nothing to subscribe to (A2A v1.0: UnsupportedOperation).
func (g *registry) resume(id a2a.TaskID) (*a2a.Task, *record, int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rec, ok := g.lookup(id)
	if !ok {
		return nil, nil, 0, fmt.Errorf("task %s: %w", id, a2a.ErrTaskNotFound)
	}
	if rec.terminal() {
		return nil, nil, 0, fmt.Errorf("task %s already ended %s; fetch it with GetTask: %w", id, rec.status.State, a2a.ErrUnsupportedOperation)
	}
	rec.readers++
	return rec.snapshot(nil), rec, len(rec.log), nil
}
