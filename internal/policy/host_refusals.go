package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// ErrStagedRuntime and ErrNoNetNS are wrapped by E-CAP-004 and E-CAP-005.
var (
	ErrStagedRuntime = errors.New("staged runtime needs the sealed class")
	ErrNoNetNS       = errors.New("no network namespace for subprocesses")
)

// CheckStagedRuntime is E-CAP-004: a staged_runtime grant only means
// something inside the sealed root, so it needs a sealed floor (decided on
// the declared floor alone, §10.2 step 3).
func CheckStagedRuntime(c *manifest.Capabilities, floor Class) error {
	if c == nil || c.Shell == nil || len(c.Shell.StagedRuntime) == 0 || floor == Sealed {
		return nil
	}
	var bins []string
	for _, g := range c.Shell.StagedRuntime {
		bins = append(bins, g.Binary)
	}
	return &diag.Error{Code: CodeStagedRuntime, Err: ErrStagedRuntime,
		Msg: fmt.Sprintf("capabilities.shell.staged_runtime grants for %s are bound into the sealed root only, but the declared containment floor is '%s'",
			strings.Join(bins, ", "), floor),
		Hint: "declare capabilities.containment: sealed (or pass --containment sealed), or use capabilities.shell.interpreter_runtime for these binaries"}
}

// CheckNetNS is E-CAP-005 (§3.4): on Linux a capsule that may start shell
// or spawned subprocesses is refused when no user and network namespace
// can be made for them, even with an empty network.allow, since nothing
// else would keep them off the network. Native-only capsules are not
// gated.
func CheckNetNS(c *manifest.Capabilities, s HostSupport) error {
	if !s.Linux || s.NetNS || (len(c.ShellAllow()) == 0 && len(c.SpawnAllow()) == 0) {
		return nil
	}
	return &diag.Error{Code: CodeNoNetNS, Err: ErrNoNetNS,
		Msg:  "this host cannot give the capsule's subprocess tree its own network namespace, so capabilities.network.allow cannot be enforced for it: " + s.noNetNSWhy(),
		Hint: "allow unprivileged user namespaces (sysctl user.max_user_namespaces, kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for mur), or remove capabilities.shell.allow and capabilities.spawn.allow"}
}

// noNetNSWhy is why the probe could not make a network namespace.
func (s HostSupport) noNetNSWhy() string {
	reason := s.NetNSErr
	if reason == "" {
		reason = "the host was not probed"
	}
	if s.NetNSReason != "" {
		reason = s.NetNSReason + ": " + reason
	}
	return reason
}
