package stage

import (
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/policy"
)

// EngineLimits is l as the component engine takes it; counts beyond the
// engine's integer range are clamped to its maximum. (Here rather than in
// policy, so that policy, and the sandbox trampoline above it, link no
// engine: the trampoline's re-exec then initialises far less.)
func EngineLimits(l policy.EffectiveLimits) component.Limits {
	return component.Limits{
		Deadline:         time.Duration(l.DeadlineSeconds) * time.Second,
		MaxMemoryBytes:   l.MemoryBytes,
		MaxTableElements: uint32(min(l.TableElements, 1<<32-1)),
		MaxInstances:     int(min(l.Instances, 1<<31-1)),
	}
}

// DefaultToolLimits are the engine limits of a tool or driver call whose
// manifest declares none (wit.md §7.1): 600 s, 512 MiB, 100000 table
// elements, 1000 instances.
func DefaultToolLimits() component.Limits {
	return EngineLimits(policy.GuestLimits(nil, false))
}
