package component

import "context"

// NewEngineYieldingEvery is NewEngine with guest loops yielding every
// `every` iterations where wazero's compiler counts them.
func NewEngineYieldingEvery(ctx context.Context, cfg Config, every uint32) (*Engine, error) {
	return newEngine(ctx, cfg, every)
}

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

// CompiledModules counts the distinct wazero compiled modules c holds for
// its core instances, in every form.
func CompiledModules(c *Component) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[any]bool{}
	for _, form := range c.forms {
		for _, m := range form {
			seen[m] = true
		}
	}
	return len(seen)
}

// HeldModuleBytes is how many bytes of core module source c still holds:
// rewritten modules kept, and the component binary its plan points into.
func HeldModuleBytes(c *Component) int {
	n := 0
	for _, ci := range c.plan.CoreInsts {
		n += len(ci.Bytes)
		if ci.Source != nil {
			n += len(ci.Source.Bytes)
		}
	}
	return n
}

// ReusedMappings counts the memory mappings e handed out again from its
// pool.
func ReusedMappings(e *Engine) uint64 {
	return e.pool.Stats().Reused
}

// ReusedStores counts the stores e made from a closed store's instances.
func ReusedStores(e *Engine) uint64 {
	return e.stores.Stats().Reused
}

// AdoptedStores counts the stores e made from stores its worker prepared.
func AdoptedStores(e *Engine) uint64 {
	return e.stores.Stats().Adopted
}

// ClearedMappings counts the released mappings e's worker cleared.
func ClearedMappings(e *Engine) uint64 {
	return e.pool.Stats().Zeroed
}

// Settle waits until e's worker has prepared every store and cleared
// every mapping asked of it so far.
func Settle(e *Engine) {
	e.stores.Settle()
	e.pool.Settle()
}

// TrackedResets counts the parked stores e reset by copying back only the
// pages written since their last reset.
func TrackedResets(e *Engine) uint64 {
	return e.stores.Stats().TrackedResets
}

// TracksPages reports whether e finds the pages a call wrote.
func TracksPages(e *Engine) bool { return e.pool.Tracks() }

// StopTrackingPages makes e reset every parked store's memory by copying
// its whole image, as where the kernel cannot tell the pages written; for
// benchmarks against that path. Call it before e makes any store.
func StopTrackingPages(e *Engine) {
	e.pool.StopTracking()
}

// BoundImages makes e keep at most n bytes of memory images.
func BoundImages(e *Engine, n uint64) {
	e.stores.SetImageBound(n)
}
