package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/diag"
	"github.com/mur-go/mur/manifest"
)

// Codes of the resource refusals: the spec's codes for "no cgroup scope"
// and "workdir ceiling", since those are the mechanisms that are missing.
const (
	CodeNoCgroup       = "E-RUN-012"
	CodeNoWorkdirGuard = "E-RUN-013"
)

// ErrNotEnforceable is wrapped by a refusal of a declared resource mur-go
// cannot enforce yet.
var ErrNotEnforceable = errors.New("declared resource limit is not enforceable")

// CheckResources refuses the capsule-wide capabilities.resources fields
// that nothing in mur-go enforces yet: the cgroup v2 ones and
// workdir_max_bytes. A declared limit that silently did nothing would be
// worse than none; the rlimit fields are applied to every native
// subprocess and pass.
func CheckResources(c *manifest.Capabilities) error {
	if c == nil || c.Resources == nil {
		return nil
	}
	r := c.Resources
	var cg []string
	for _, f := range []struct {
		name string
		v    *uint64
	}{{"cgroup_memory_bytes", r.CgroupMemoryBytes}, {"cgroup_pids_max", r.CgroupPidsMax},
		{"cgroup_cpu_percent", r.CgroupCPUPercent}, {"cgroup_io_bytes_per_sec", r.CgroupIOBytesPerSec}} {
		if f.v != nil {
			cg = append(cg, "capabilities.resources."+f.name)
		}
	}
	if len(cg) > 0 {
		return &diag.Error{Code: CodeNoCgroup, Err: ErrNotEnforceable,
			Msg: fmt.Sprintf("not implemented yet in mur-go: %s declared, but mur-go creates no cgroup v2 scope, so nothing would enforce it",
				strings.Join(cg, ", ")),
			Hint: "remove the cgroup_* keys from capabilities.resources; the per-process limits (max_processes, max_open_files, max_file_size_bytes, cpu_seconds, memory_bytes) are enforced as rlimits"}
	}
	if r.WorkdirMaxBytes != nil {
		return &diag.Error{Code: CodeNoWorkdirGuard, Err: ErrNotEnforceable,
			Msg:  "not implemented yet in mur-go: capabilities.resources.workdir_max_bytes declared, but mur-go has no workdir size guard, so nothing would enforce it",
			Hint: "remove workdir_max_bytes from capabilities.resources; max_file_size_bytes bounds each file a native subprocess writes"}
	}
	return nil
}
