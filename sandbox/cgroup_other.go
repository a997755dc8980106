//go:build !linux

package sandbox

import "os"

// ProbeCgroup finds nothing: cgroups are Linux's.
func ProbeCgroup() CgroupSupport {
	return CgroupSupport{Reason: "this platform has no cgroups"}
}

// NewCgroup refuses: there is no cgroup to create here.
func NewCgroup(CgroupRequest) (*Cgroup, error) {
	return nil, noCgroup("this platform has no cgroups")
}

// Counters are zero: no scope exists off Linux.
func (c *Cgroup) Counters() CgroupCounters { return CgroupCounters{} }

// Close has nothing to remove.
func (c *Cgroup) Close() error { return nil }

func (c *Cgroup) procsFiles() []*os.File { return nil }
