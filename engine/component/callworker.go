package component

import (
	"runtime"
	"sync"
)

// callWorker is the goroutine a store's watched calls run on (see run).
// A fresh goroutine per call starts on a small stack and grows it by
// copying, frame by frame, through the engine's deep call path, twice
// per call: that copying, not the goroutine itself, cost most of a warm
// call (a hook's lifecycle call ~20 µs, ~5 µs inline). One long-lived
// goroutine per store keeps its grown stack from call to call.
type callWorker struct {
	jobs chan func()
	stop sync.Once
}

func newCallWorker() *callWorker {
	w := &callWorker{jobs: make(chan func(), 1)}
	go func(jobs chan func()) {
		for job := range jobs {
			job()
		}
	}(w.jobs)
	return w
}

// close ends the goroutine once its current job (an abandoned call still
// stuck in a host function, say) returns.
func (w *callWorker) close() { w.stop.Do(func() { close(w.jobs) }) }

// start runs job on the store's worker, or on a goroutine of its own when
// the worker cannot take it at once: the store is closed, or the worker
// is still inside an abandoned call. A store is used by one goroutine at
// a time, so the worker is otherwise idle and the send never waits.
func (s *Store) start(job func()) {
	a := &s.abandon
	if a.abandoned.Load() || a.workerClosed {
		go job()
		return
	}
	if a.worker == nil {
		a.worker = newCallWorker()
		// A store dropped without Close still ends its worker: the
		// worker holds no reference to the store between jobs.
		runtime.AddCleanup(s, (*callWorker).close, a.worker)
	}
	select {
	case a.worker.jobs <- job:
	default:
		go job()
	}
}

// closeWorker ends the store's worker; later calls (refused, the store
// being closed) would each get a goroutine of their own.
func (s *Store) closeWorker() {
	a := &s.abandon
	a.workerClosed = true
	if a.worker != nil {
		a.worker.close()
	}
}
