package sandbox

import "golang.org/x/sys/unix"

// On Linux memory_bytes bounds the address space.
const (
	memoryLimit         = unix.RLIMIT_AS
	memoryLimitName     = "RLIMIT_AS"
	memoryLimitRequired = true
)
