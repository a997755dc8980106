package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// drainScope kills every process in the scope's leaves and removes them
// (a leaf already gone counts as removed). A killed process leaves its
// cgroup only once the kernel has reaped it, so removal is retried for a
// bounded while; the error names the leaves that stayed.
//
// A tree that keeps forking (each child forks and exits) could outrun a
// loop that reads the members and kills them one by one, so first the
// scope is stopped from growing: cgroup.kill on v2 (Linux 5.14) kills it
// at once, and pids.max 0 (v1 and v2) makes every fork in it fail, so
// its membership can only shrink while the loop kills what is left.
func drainScope(leaves []string, timeout time.Duration) error {
	for _, l := range leaves {
		_ = writeFile(l, "cgroup.kill", "1")
		_ = writeFile(l, "pids.max", "0")
	}
	deadline := time.Now().Add(timeout)
	left := slices.Clone(leaves)
	signalled := map[int]bool{}
	for {
		fresh := killMembers(left, signalled)
		var errs []error
		left = slices.DeleteFunc(left, func(l string) bool {
			err := os.Remove(l)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
				return false
			}
			return true
		})
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("removing the cgroup scope: %w", errors.Join(errs...))
		}
		if fresh == 0 {
			time.Sleep(10 * time.Millisecond) // only the reaping of the killed is awaited
		}
	}
}

// killMembers sends SIGKILL to every process in the leaves and says how
// many of them it had not signalled before (signalled keeps them). A pid
// read from cgroup.procs may have been reused by the time it is
// signalled, so each is pinned with a pidfd first and signalled only if
// it is still a member afterwards (the pidfd then names that very
// process); a pid of another pid namespace reads as 0 and is skipped.
func killMembers(leaves []string, signalled map[int]bool) int {
	before := members(leaves)
	pinned := map[int]int{}
	for _, pid := range before {
		if fd, err := unix.PidfdOpen(pid, 0); err == nil {
			pinned[pid] = fd
		} else if errors.Is(err, unix.ENOSYS) {
			pinned[pid] = -1 // Linux before 5.3: the pid alone
		}
	}
	after := members(leaves)
	fresh := 0
	for pid, fd := range pinned {
		if slices.Contains(after, pid) {
			var err error
			if fd >= 0 {
				err = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			} else {
				err = unix.Kill(pid, unix.SIGKILL)
			}
			if err == nil && !signalled[pid] {
				signalled[pid] = true
				fresh++
			}
		}
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	return fresh
}

// members are the pids in the leaves' cgroup.procs (unreadable: none).
func members(leaves []string) []int {
	var pids []int
	for _, l := range leaves {
		b, err := os.ReadFile(filepath.Join(l, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 && !slices.Contains(pids, pid) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}
