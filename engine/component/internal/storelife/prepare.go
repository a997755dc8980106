package storelife

import "context"

// A store restored from a snapshot spends most of its fixed cost in
// wazero's instantiation (element and data segments) and in writing the
// snapshot, none of which depends on the store: no guest code runs and
// nothing host-side is bound until the handles are remade. So when such a
// store closes, whether its instances are reused or not, the engine's
// worker makes one store of that snapshot ahead, pristine, and parks it
// with the idle stores; the next store of the snapshot adopts it like a
// reused one, without a reset since it was never called, and asks for
// the next one at once: calls that follow one another leave no gap, so
// it is made during the call.
// It is made from nothing any store ran: fresh instances of the modules
// and the snapshot's own runs, with its own memory limiter set to the
// snapshot's memory cap. One per snapshot at most, under the idle stores'
// bounds; dropped by Drain. A failed preparation only means the next
// store instantiates as usual.

// Job is a store the worker is to prepare.
type Job interface {
	// Snapshot is the snapshot the store is restored from.
	Snapshot() *Snapshot
	// Build instantiates the store's modules and restores the snapshot
	// into them, but remakes no handle: that is the adopting store's,
	// from its own host.
	Build(ctx context.Context) (Instances, error)
}

// wanted is a job queued, with the context it runs under.
type wanted struct {
	ctx context.Context
	job Job
}

// Want queues j, to run under ctx without its cancellation, unless a store
// of its snapshot is idle, wanted or being prepared already, or could not
// be kept. It reports whether j was queued: the caller then wakes the
// worker.
func (p *Pool) Want(ctx context.Context, j Job) bool {
	snap := j.Snapshot()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || snap.Memory > p.idleBytesBound || p.preparing == snap {
		return false
	}
	for _, is := range p.idle {
		if is.snap == snap {
			return false
		}
	}
	for _, w := range p.wanted {
		if w.job.Snapshot() == snap {
			return false
		}
	}
	p.wanted = append(p.wanted, wanted{ctx: context.WithoutCancel(ctx), job: j})
	return true
}

// PrepareNext prepares one wanted store, for the worker, and reports
// whether one was wanted.
func (p *Pool) PrepareNext() bool {
	p.mu.Lock()
	if len(p.wanted) == 0 {
		p.mu.Unlock()
		return false
	}
	w := p.wanted[0]
	p.wanted = p.wanted[1:]
	snap := w.job.Snapshot()
	p.preparing = snap
	drains := p.drains
	p.mu.Unlock()

	in, err := w.job.Build(w.ctx)
	var drop []*idleStore
	p.mu.Lock()
	switch {
	case err != nil:
		// Nothing to report: the next store instantiates as usual.
	case p.closed || p.drains != drains:
		drop = []*idleStore{{snap: snap, in: in}}
	default:
		drop = p.putLocked(&idleStore{snap: snap, in: in, pristine: true})
	}
	p.mu.Unlock()
	// Closed before the preparation is over, so that a drain waiting for
	// it finds their mappings released.
	for _, old := range drop {
		old.in.close(w.ctx)
	}
	p.mu.Lock()
	p.preparing = nil
	p.prepared.Broadcast()
	p.mu.Unlock()
	return true
}

// Settle waits until the worker has prepared every wanted store.
func (p *Pool) Settle() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.wanted) > 0 || p.preparing != nil {
		p.prepared.Wait()
	}
}
