//go:build !linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// ProbeCgroup finds nothing: cgroups are Linux's.
func ProbeCgroup(context.Context) CgroupSupport {
	return CgroupSupport{Reason: "this platform has no cgroups"}
}

// JoinSystemdScope refuses: there is no systemd scope off Linux.
func JoinSystemdScope(context.Context) (string, error) {
	return "", errors.New("this platform has no systemd")
}

// NewCgroup refuses: there is no cgroup to create here.
func NewCgroup(CgroupRequest) (*Cgroup, error) {
	return nil, noCgroup("this platform has no cgroups")
}

// SweepStaleScopes finds nothing: no scope exists off Linux.
func SweepStaleScopes() ([]StaleScope, error) { return nil, nil }

// Counters are zero: no scope exists off Linux.
func (c *Cgroup) Counters() CgroupCounters { return CgroupCounters{} }

// Close has nothing to remove.
func (c *Cgroup) Close() error { return nil }

func (c *Cgroup) procsFiles() []*os.File { return nil }

// reaper does not exist off Linux: there is no scope to reap.
type reaper struct{}

// reaperMain refuses: only a Linux scope has a reaper.
func reaperMain([]string) {
	fmt.Fprintf(os.Stderr, "mur: %s is started by mur for a session's cgroup scope, never by hand\n", ReaperMode)
	os.Exit(2)
}
