package tools

import (
	"fmt"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
)

// LimitDetail words a limit a guest hit the way Murmur's messages do, and
// names the capabilities.limits key that raises it ("" for the per-store
// caps the manifest has no key for: resource handles, open files).
func LimitDetail(e *component.LimitError) (key, detail string) {
	switch e.Limit {
	case component.LimitTableElements:
		return "table_elements", fmt.Sprintf("table growth to %d elements exceeds capabilities.limits.table_elements (%d)", e.Desired, e.Max)
	case component.LimitLiftedBytes:
		return "memory_bytes", fmt.Sprintf("values the host copied out of the guest reached %d bytes, over capabilities.limits.memory_bytes (%d)", e.Desired, e.Max)
	case component.LimitHandles:
		return "", fmt.Sprintf("the guest held %d resource handles, over the runtime's per-store cap (%d)", e.Desired, e.Max)
	case wasip2.LimitOpenFiles:
		return "", fmt.Sprintf("the guest held %d open files, over the runtime's per-store cap (%d)", e.Desired, e.Max)
	}
	return "memory_bytes", fmt.Sprintf("linear memory growth to %d bytes exceeds capabilities.limits.memory_bytes (%d)", e.Desired, e.Max)
}

// LimitHint is what to do about a limit LimitDetail named key for.
func LimitHint(key string) string {
	if key == "" {
		return "the cap is fixed; a guest that needs this many is holding resources it should release"
	}
	return fmt.Sprintf("raise capabilities.limits.%s in murmur.yaml if the capsule legitimately needs more", key)
}
