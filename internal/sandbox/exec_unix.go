//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// Main is the trampoline: args are what follows ExecMode. It sets every
// limit as a hard limit on this process, applies the containment plan and
// execs the tool, so the tool never runs a single instruction without
// them. Any failure ends the process with status 127 and its reason on
// the diagnostic pipe (Start), or on stderr without one; the tool does
// not run.
func Main(args []string) {
	// Capabilities, no_new_privs, seccomp and Landlock are per thread
	// (the last two put on this thread alone, see restrictPaths): the
	// probe's checks and the exec must run on the thread that has them.
	runtime.LockOSThread()
	if len(args) > 0 && args[0] == probeArg {
		if err := probeChild(args[1:]); err != nil {
			report(-1, err)
			os.Exit(127)
		}
		os.Exit(0)
	}
	fd := -1
	if len(args) > 0 {
		fd, args = openDiag(args[0]), args[1:]
	}
	if err := run(args); err != nil {
		report(fd, err)
		os.Exit(127)
	}
}

func run(args []string) error {
	a, err := parseArgs(args)
	if err != nil {
		return err
	}
	if err := apply(a.limits); err != nil {
		return err
	}
	if err := joinCgroup(a.cgroupFDs); err != nil {
		return err
	}
	if a.plan != nil {
		if err := contain(a.plan); err != nil {
			return err
		}
	}
	// syscall.Setrlimit (unlike a raw prlimit) also stops the Go runtime
	// from restoring its own RLIMIT_NOFILE soft limit at exec.
	if err := syscall.Exec(a.path, a.argv, os.Environ()); err != nil {
		return fmt.Errorf("exec %s: %w", a.path, err)
	}
	return nil
}

// joinCgroup is §9.4's second step: this process (every thread of it)
// moves into the session scope through each cgroup.procs the runtime
// opened, so the tool and everything it forks count against the scope's
// ceilings. The descriptors are closed: the tool gets none of them.
func joinCgroup(fds []int) error {
	for _, fd := range fds {
		_, err := unix.Write(fd, []byte("0"))
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("joining the session's cgroup scope: %w", err)
		}
	}
	return nil
}

// apply sets the limits in §9.4's first step.
func apply(l Rlimits) error {
	set := []struct {
		name     string
		resource int
		v        uint64
	}{
		{"RLIMIT_CORE", unix.RLIMIT_CORE, 0},
		{"RLIMIT_NOFILE", unix.RLIMIT_NOFILE, l.OpenFiles},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, l.FileSizeBytes},
		{"RLIMIT_CPU", unix.RLIMIT_CPU, l.CPUSeconds},
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, l.ExtraProcesses}, // the whole value: see childArgs
	}
	for _, s := range set {
		if err := hard(s.resource, s.v); err != nil {
			return fmt.Errorf("setting %s to %d: %w", s.name, s.v, err)
		}
	}
	if err := hard(memoryLimit, l.MemoryBytes); err != nil && memoryLimitRequired {
		return fmt.Errorf("setting %s to %d: %w", memoryLimitName, l.MemoryBytes, err)
	}
	return nil
}

// hard sets soft = hard = v, clamped to the current hard limit (raising a
// hard limit needs privileges, and a lower one inherited stays).
func hard(resource int, v uint64) error {
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(resource, &cur); err != nil {
		return err
	}
	v = min(v, cur.Max)
	return syscall.Setrlimit(resource, &syscall.Rlimit{Cur: v, Max: v})
}
