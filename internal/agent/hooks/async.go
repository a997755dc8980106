package hooks

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// job is one queued lifecycle call; its record was built, totals and
// elapsed time included, when it was queued.
type job struct {
	fn   string
	args []any
}

// worker owns an async hook's instance and calls it one job at a time in
// dispatch order (wit.md §6.8). Output is always discarded. This is the
// repository's behaviour; the seed (0.1.0) instead instantiated a fresh
// instance per event, fire-and-forget, with no queue bound and no drain.
type worker struct {
	r       *Runtime
	in      *instance
	queue   chan job
	block   bool
	ctx     context.Context
	abort   context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	dropped int
	closed  bool
}

func (r *Runtime) startWorker(in *instance) *worker {
	ctx, abort := context.WithCancel(context.Background())
	w := &worker{r: r, in: in, queue: make(chan job, r.opts.QueueDepth), block: in.spec.blockOverflow,
		ctx: ctx, abort: abort, done: make(chan struct{})}
	go w.run()
	return w
}

func (w *worker) run() {
	defer close(w.done)
	defer func() {
		// A panic here is a bug in the host, not the hook's doing: it
		// ends this worker only, and says so.
		if p := recover(); p != nil {
			w.r.logHook(w.in.spec.name, fmt.Sprintf("hook '%s' worker task failed: %v", w.in.spec.name, p))
		}
	}()
	for j := range w.queue {
		if w.ctx.Err() != nil {
			return
		}
		_, absent, err := w.r.call(w.ctx, w.in, j.fn, j.args)
		if w.ctx.Err() != nil {
			// Aborted by the drain budget, which reports it.
			return
		}
		if err != nil && !absent {
			w.r.logHook(w.in.spec.name, err.Error())
			w.r.fault(w.in.spec.name, j.fn, "error")
		}
	}
}

// enqueue queues j. A full queue drops it (counted, a queue-overflow
// fault) or, under on_overflow: block, waits for room or for ctx.
func (w *worker) enqueue(ctx context.Context, j job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	select {
	case w.queue <- j:
		return
	default:
	}
	if !w.block {
		w.dropped++
		w.r.fault(w.in.spec.name, j.fn, "queue-overflow")
		return
	}
	select {
	case w.queue <- j:
	case <-ctx.Done():
	}
}

// drain closes every async queue and waits for the workers under one
// shared budget; a worker still busy when it runs out is aborted.
func (r *Runtime) drain(ctx context.Context) {
	if len(r.async) == 0 {
		return
	}
	for _, w := range r.async {
		w.mu.Lock()
		w.closed = true
		close(w.queue)
		w.mu.Unlock()
	}
	budget := r.opts.DrainBudget
	timer := time.NewTimer(budget)
	defer timer.Stop()
	expired := false
	for _, w := range r.async {
		name := w.in.spec.name
		if !expired {
			select {
			case <-w.done:
			case <-timer.C:
				expired = true
			case <-ctx.Done():
				expired = true
			}
		}
		if expired {
			select {
			case <-w.done:
			default:
				w.abort()
				<-w.done
				r.logHook(name, fmt.Sprintf("hook '%s' did not finish its queued lifecycle calls within the %dms session-end drain budget; the remaining calls were abandoned", name, budget.Milliseconds()))
				r.fault(name, "drain", "timeout")
			}
		}
		if w.dropped > 0 {
			r.logHook(name, fmt.Sprintf("hook '%s' discarded %d lifecycle event(s): its queue (%d deep) was full and the capsule manifest declares 'on_overflow: drop' for this hook", name, w.dropped, cap(w.queue)))
		}
		w.in.close(ctx)
	}
}
