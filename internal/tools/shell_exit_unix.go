//go:build unix

package tools

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// exitCode is the process's exit status, 128+N when signal N killed it,
// else -1 (security.md §5.3).
func exitCode(ps *os.ProcessState) int32 {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	switch {
	case !ok:
		return int32(ps.ExitCode())
	case ws.Exited():
		return int32(ws.ExitStatus())
	case ws.Signaled():
		return 128 + int32(ws.Signal())
	}
	return -1
}

// exitOf is how the process ended: its exitCode and, when a signal
// killed it, the signal's name.
func exitOf(ps *os.ProcessState) Exit {
	e := Exit{Code: exitCode(ps)}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.Signal = unix.SignalName(ws.Signal())
		if e.Signal == "" {
			e.Signal = ws.Signal().String()
		}
	}
	return e
}

// resourceLimit names the capabilities.resources limit that killed the
// process, if the evidence names one (security.md §12.4): SIGXFSZ is
// RLIMIT_FSIZE's. RLIMIT_CPU sends SIGXCPU at the soft limit and SIGKILL
// at the hard one; mur sets both equal, so the kernel's SIGKILL comes
// first, and a SIGKILL is attributed only when the process had used its
// whole CPU allowance (cpuSeconds, 0: none set).
func resourceLimit(ps *os.ProcessState, cpuSeconds uint64) string {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	switch ws.Signal() {
	case syscall.SIGXCPU:
		return "cpu_seconds"
	case syscall.SIGXFSZ:
		return "max_file_size_bytes"
	case syscall.SIGKILL:
		// rusage reads some tens of milliseconds under the scheduler
		// time the kernel compared with the limit.
		limit := time.Duration(cpuSeconds) * time.Second
		slack := max(250*time.Millisecond, limit/50)
		if cpuSeconds > 0 && ps.UserTime()+ps.SystemTime() >= limit-slack {
			return "cpu_seconds"
		}
	}
	return ""
}
