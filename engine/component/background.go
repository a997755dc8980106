package component

import "sync"

// background is an engine's worker for the fixed work of a store's life
// that no call has to wait for: clearing a released memory mapping before
// it is pooled (memory.Pool) and preparing a restored store for the next
// store of its configuration (storelife.Pool, store_prepare.go). An
// agent loop has gaps between calls (tools, traces, replies) where this
// work fits; a store that comes before it is done maps or instantiates
// afresh, never uses half-done work. One goroutine per engine, started by
// the first work and stopped by Engine.Close.
type background struct {
	// step does one piece of work and reports whether there was any.
	step func() bool

	mu      sync.Mutex
	started bool
	closed  bool
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// kick makes sure the worker runs soon; it does nothing once closed.
func (b *background) kick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	if !b.started {
		b.started = true
		b.wake, b.stop, b.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
		go b.loop(b.wake, b.stop, b.done)
	}
	select {
	case b.wake <- struct{}{}:
	default: // already woken: it will see the new work
	}
}

func (b *background) loop(wake, stop, done chan struct{}) {
	defer close(done)
	for {
		select {
		case <-stop:
			return
		case <-wake:
		}
		for b.step() {
			select {
			case <-stop:
				return
			default:
			}
		}
	}
}

// close stops the worker, waiting for the piece of work it is doing.
func (b *background) close() {
	b.mu.Lock()
	started, already := b.started, b.closed
	b.closed = true
	b.mu.Unlock()
	if started && !already {
		close(b.stop)
		<-b.done
	}
}
