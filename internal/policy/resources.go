package policy

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// Codes of the resource refusals (security.md §12.2, §12.3).
const (
	CodeNoCgroup       diag.Code = "E-RUN-012"
	CodeWorkdirCeiling diag.Code = "E-RUN-013"
)

// ErrNoCgroup is wrapped by the E-RUN-012 refusal.
var ErrNoCgroup = errors.New("no cgroup scope for the subprocess tree")

// CheckCgroup is §12.2's refusal before anything is created: on Linux, a
// capsule whose shell.allow or spawn.allow is non-empty, or whose agent
// CLI is a native subprocess (inference.transport: process), needs a
// cgroup scope, and the host's probe found no way to build one, unless
// the operator turned the scope off (HostSupport.WithoutCgroup). (A native
// tool makes a scope required too; it is known only once the lock's
// artifacts are read, and launch refuses it there with the same error.)
func CheckCgroup(c *manifest.Capsule, s HostSupport) error {
	if !s.Linux || s.Cgroup != "" || s.CgroupOff {
		return nil
	}
	caps := c.Capabilities
	cli := c.Inference != nil && c.Inference.Transport == "process"
	if len(caps.ShellAllow()) == 0 && len(caps.SpawnAllow()) == 0 && !cli {
		return nil
	}
	return NoCgroup(s.CgroupErr, nil)
}

// NoCgroup is E-RUN-012 in the spec's words with reason.
func NoCgroup(reason string, err error) *diag.Error {
	if err == nil {
		err = ErrNoCgroup
	}
	return &diag.Error{Code: CodeNoCgroup, Err: err,
		Msg:  fmt.Sprintf("this capsule can spawn native subprocesses but no cgroup v2 scope could be created to bound them (%s); on Linux the runtime refuses to launch rather than run a subprocess tree with no aggregate memory/pids/cpu ceiling", reason),
		Hint: "run mur in a systemd user session (a user manager on the session bus, DBUS_SESSION_BUS_ADDRESS or $XDG_RUNTIME_DIR/bus, gives each mur a delegated scope), or where a delegated cgroup v2 subtree (memory, pids and cpu controllers) or writable cgroup v1 memory, pids and cpu hierarchies are inherited (mur doctor says which); on a host that delegates none, the operator may run without the aggregate ceiling with mur run --no-cgroup (MUR_NO_CGROUP=1): per-process rlimits and the containment still apply; or remove capabilities.shell.allow, capabilities.spawn.allow and native tools from the capsule (an inference.transport: process agent CLI needs the scope too)"}
}
