package main

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// nonDumpable clears the dumpable flag: /proc/<pid>/{environ,mem,fd} then
// belong to root and ptrace by same-uid processes is refused. Children
// inherit the flag until they exec; nothing mur does re-enables it.
func nonDumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_DUMPABLE, 0): %w", err)
	}
	return nil
}
