package cluster

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// waits wakes the requests that wait for a task to end. One watch of the
// task records serves the whole gateway: a waiter registers its key
// before it reads the record, so an update it has not read yet always
// wakes it.
type waits struct {
	mu      sync.Mutex
	m       map[string]map[chan struct{}]struct{}
	watcher jetstream.KeyWatcher
	kv      jetstream.KeyValue
}

func startWaits(ctx context.Context, kv jetstream.KeyValue, log *slog.Logger) (*waits, error) {
	kw, err := kv.Watch(ctx, queue.TaskKeys(""), jetstream.UpdatesOnly(), jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	w := &waits{m: map[string]map[chan struct{}]struct{}{}, watcher: kw, kv: kv}
	go func() {
		for e := range kw.Updates() {
			if e != nil {
				w.wake(e.Key())
			}
		}
	}()
	return w, nil
}

// backstop is how often a waiter reads its record with no wake.
const backstop = 2 * time.Second

func (w *waits) stop() { _ = w.watcher.Stop() }

func (w *waits) wake(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.m[key] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// until reads the record at key until done says it is what the caller
// waits for, or ctx ends (then the last record read and ctx's error).
func (w *waits) until(ctx context.Context, key string, done func(*queue.Record) bool) (*queue.Record, error) {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	if w.m[key] == nil {
		w.m[key] = map[chan struct{}]struct{}{}
	}
	w.m[key][ch] = struct{}{}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.m[key], ch)
		if len(w.m[key]) == 0 {
			delete(w.m, key)
		}
		w.mu.Unlock()
	}()
	for {
		var r *queue.Record
		err := queue.Retry(ctx, 15*time.Second, func(ctx context.Context) error {
			var err error
			r, _, err = queue.Get(ctx, w.kv, key)
			return err
		})
		if err != nil {
			return nil, err
		}
		if done(r) {
			return r, nil
		}
		// The watch wakes the waiter; the backstop re-reads should the
		// watch's consumer be lost with a server and not yet remade.
		select {
		case <-ch:
		case <-time.After(backstop):
		case <-ctx.Done():
			return r, ctx.Err()
		}
	}
}
