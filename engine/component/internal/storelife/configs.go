package storelife

import "sync"

// Snapshots live as long as their component, while the memory they copy
// lived only as long as a call: without bounds a guest that fills its
// memory at start-up would make the host keep it for good, per
// configuration. Past these, stores instantiate normally.
const (
	// maxSnapshots bounds the configurations one component keeps.
	maxSnapshots = 64
	// maxSnapshotBytes bounds the memory runs of one snapshot; Go guests
	// need under 64 KiB.
	maxSnapshotBytes = 8 << 20
	// maxComponentSnapshotBytes bounds them for all of a component's.
	maxComponentSnapshotBytes = 64 << 20
)

// Snapshots are one component's snapshots, by configuration K: what
// initialisation may observe, and the limits it ran under. They are taken
// at the first store that needs them, not at Compile, and go with the
// component.
type Snapshots[K comparable] struct {
	mu      sync.Mutex
	entries map[K]*entry
	// bytes is the memory the snapshots hold.
	bytes int
}

type entryState uint8

const (
	pending entryState = iota + 1 // the first store is initialising
	failed                        // not snapshottable: always initialise
	ready
)

type entry struct {
	state entryState
	snap  *Snapshot
}

// Role decides what a store of configuration k does: restore the snapshot
// it returns, take it (first: the configuration's first store) or, with
// neither, initialise normally.
func (s *Snapshots[K]) Role(k K) (snap *Snapshot, first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries == nil {
		s.entries = map[K]*entry{}
	}
	e, ok := s.entries[k]
	if !ok {
		if len(s.entries) >= maxSnapshots {
			return nil, false
		}
		s.entries[k] = &entry{state: pending}
		return nil, true
	}
	if e.state == ready {
		return e.snap, false
	}
	return nil, false
}

// Settle records the outcome of configuration k's first store: snap, or
// nil when there is none. It reports whether snap was kept.
func (s *Snapshots[K]) Settle(k K, snap *Snapshot) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[k]
	if snap == nil {
		e.state = failed
		return false
	}
	n := snap.Bytes()
	if n > maxSnapshotBytes || s.bytes+n > maxComponentSnapshotBytes {
		e.state = failed
		return false
	}
	s.bytes += n
	e.state, e.snap = ready, snap
	return true
}

// Forget lets the next store of configuration k try again, after its first
// store failed for reasons of its own (a deadline, a cancellation).
func (s *Snapshots[K]) Forget(k K) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, k)
}
