package component

import "time"

// Limits bound what one store may use. Zero means unlimited, except where
// a field says otherwise: host memory and handle tables are always bounded.
type Limits struct {
	// Deadline bounds the wall-clock time of every call into the store.
	Deadline time.Duration
	// MaxMemoryBytes caps the sum of all linear memories in the store. It
	// also bounds the host memory one lift may allocate (a call's result,
	// or the arguments of a host function the guest calls): the guest
	// could otherwise make a small value in its memory expand on the host
	// without limit. When it is zero, lifts are bounded by
	// canon.DefaultLiftBudget (4 GiB, the most a 32-bit memory holds).
	MaxMemoryBytes uint64
	// MaxTableElements caps the size of each table in the store.
	MaxTableElements uint32
	// MaxInstances caps core module instances plus component instances.
	MaxInstances int
	// MaxHandles caps the resource handles live at once in all of the
	// store's handle tables, each of which costs host memory; zero means
	// DefaultMaxHandles.
	MaxHandles int
}

// DefaultMaxHandles is the handle cap of a store whose Limits.MaxHandles
// is zero: far more than real guests hold at once (a handle per open
// file, stream or pollable), while 65,536 handles cost the host a few
// megabytes at most.
const DefaultMaxHandles = 65536

// liftBudget is the host memory one lift may allocate (see MaxMemoryBytes);
// zero lets canon apply its default.
func (l Limits) liftBudget() uint64 { return l.MaxMemoryBytes }

func (l Limits) maxHandles() int {
	if l.MaxHandles > 0 {
		return l.MaxHandles
	}
	return DefaultMaxHandles
}
