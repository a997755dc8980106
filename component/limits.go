package component

import "time"

// Limits bound what one store may use. Zero means unlimited.
type Limits struct {
	// Deadline bounds the wall-clock time of every call into the store.
	Deadline time.Duration
	// MaxMemoryBytes caps the sum of all linear memories in the store.
	MaxMemoryBytes uint64
	// MaxTableElements caps the size of each table in the store.
	MaxTableElements uint32
	// MaxInstances caps core module instances plus component instances.
	MaxInstances int
}
