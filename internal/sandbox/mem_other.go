//go:build unix && !linux

package sandbox

import "golang.org/x/sys/unix"

// Elsewhere memory_bytes is RLIMIT_DATA, best effort: macOS rejects it.
const (
	memoryLimit         = unix.RLIMIT_DATA
	memoryLimitName     = "RLIMIT_DATA"
	memoryLimitRequired = false
)
