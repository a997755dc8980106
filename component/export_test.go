package component

// WaitAbandoned waits until the goroutine of s's abandoned call, if any,
// has ended, and then the deferred Close, if one was arranged.
func WaitAbandoned(s *Store) {
	a := &s.abandon
	if a.stuck == nil {
		return
	}
	for range a.stuck {
	}
	if a.closed != nil {
		<-a.closed
	}
}

// WorkerJobs is the job queue of s's call worker (nil before any call
// that runs on one).
func WorkerJobs(s *Store) chan func() {
	if s.abandon.worker == nil {
		return nil
	}
	return s.abandon.worker.jobs
}
