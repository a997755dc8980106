package policy

import "fmt"

// HostSupport is what the live probes found this host can enforce on a
// subprocess (security.md §9.1). The probes themselves exercise the
// trampoline (sandbox.Prober); this is their result, from which the tier
// and the achievable class follow.
type HostSupport struct {
	// Linux is the platform; Probed is false when no probe ran (then
	// nothing is assumed to be enforced).
	Linux  bool `json:"linux"`
	Probed bool `json:"probed"`
	// LandlockABI is the Landlock ABI a forked child restricted itself
	// with and found fully enforced (0: none; LandlockErr says why).
	LandlockABI int    `json:"landlock_abi"`
	LandlockErr string `json:"landlock_error,omitempty"`
	// Seccomp is true when the child loaded the §9.3 filter.
	Seccomp    bool   `json:"seccomp"`
	SeccompErr string `json:"seccomp_error,omitempty"`
	// NetNS is true when a child was cloned into a new user and network
	// namespace with its id maps written and raised its loopback;
	// NetNSErr and NetNSReason say why not.
	NetNS       bool   `json:"netns"`
	NetNSErr    string `json:"netns_error,omitempty"`
	NetNSReason string `json:"netns_reason,omitempty"`
	// Sealed is true when a child was cloned into a new user and mount
	// namespace, its id maps written, and mounted a tmpfs there (the
	// sealed probe, §9.1); SealedBlocker (one of the Blocker* names) and
	// SealedErr say why not.
	Sealed        bool   `json:"sealed"`
	SealedBlocker string `json:"sealed_blocker,omitempty"`
	SealedErr     string `json:"sealed_error,omitempty"`
	// Cgroup is the mechanism a session's cgroup scope is built with
	// ("systemd": in a transient scope the systemd user manager
	// delegates; "cgroup2", "cgroup1": in the inherited cgroup; "" none,
	// CgroupErr says why); CgroupNote says what a cgroup1 scope gives up,
	// or where a systemd one falls back to.
	Cgroup     string `json:"cgroup"`
	CgroupErr  string `json:"cgroup_error,omitempty"`
	CgroupNote string `json:"cgroup_note,omitempty"`
	// CgroupOff is the operator's downgrade (WithoutCgroup): no scope,
	// and none required.
	CgroupOff bool `json:"cgroup_off,omitempty"`
}

// CgroupOffReason is why a session has no cgroup scope when the operator
// turned it off.
const CgroupOffReason = "the operator turned the session's cgroup scope off (mur run --no-cgroup, MUR_NO_CGROUP=1)"

// WithoutCgroup is s as the operator's --no-cgroup (MUR_NO_CGROUP=1,
// capsule.Options.NoCgroup) leaves it: no cgroup scope is built, none is
// required (no E-RUN-012), and W-SEC-010 says so.
func (s HostSupport) WithoutCgroup() HostSupport {
	s.Cgroup, s.CgroupNote, s.CgroupErr, s.CgroupOff = "", "", CgroupOffReason, true
	return s
}

// The SealedBlocker reasons (§10.2), in the precedence they are decided
// in: the platform, AppArmor, the namespace outcome, then Landlock.
const (
	BlockerNotLinux        = "NotLinux"
	BlockerAppArmor        = "AppArmorProfileMissing"
	BlockerNamespaceDenied = "NamespaceCreationDenied"
	BlockerIDMapDenied     = "IdMapDenied"
	BlockerMountDenied     = "MountDenied"
	BlockerKernel          = "KernelUnsupported"
	BlockerLandlockMissing = "LandlockUnavailable"
)

// The two reasons E-CAP-005 distinguishes (§3.4).
const (
	NetNSGrantMissing  = "CapabilityGrantMissing"
	NetNSKernelMissing = "KernelSupportMissing"
)

// Tier is the host tier the support gives: KernelSealed needs the sealed
// probe and the network namespace (a sealed subprocess gets both) on top
// of KernelFull.
func (s HostSupport) Tier() Tier {
	switch {
	case !s.Linux || !s.Probed:
		return TierEnvironmentOnly
	case s.LandlockABI > 0 && s.Seccomp && s.Sealed && s.NetNS:
		return TierKernelSealed
	case s.LandlockABI > 0 && s.Seccomp:
		return TierKernelFull
	case s.Seccomp:
		return TierSeccompOnly
	}
	return TierEnvironmentOnly
}

// Mechanism is the tier as --explain-scope and the trace name it.
func (t Tier) Mechanism() string {
	switch t {
	case TierKernelSealed:
		return "mountns+pivot_root+landlock+seccomp"
	case TierKernelFull:
		return "landlock+seccomp"
	case TierSeccompOnly:
		return "seccomp-only"
	}
	return "none"
}

func (t Tier) String() string {
	switch t {
	case TierKernelSealed:
		return "KernelSealed"
	case TierKernelFull:
		return "KernelFull"
	case TierSeccompOnly:
		return "KernelSeccompOnly"
	}
	return "EnvironmentOnly"
}

// Gaps explains, per class above what the tier gives, why this host
// cannot provide it: what `mur doctor` prints and E-CAP-003 carries.
func (s HostSupport) Gaps() map[Class]string {
	out := map[Class]string{}
	switch {
	case !s.Linux:
		out[Scoped] = "this platform is not Linux: subprocesses get environment controls only (no Landlock, seccomp or namespaces)"
	case !s.Probed:
		out[Scoped] = "the host was not probed (no trampoline binary to probe with), so no kernel mechanism is assumed"
	case s.LandlockABI == 0:
		out[Scoped] = fmt.Sprintf("the scoped class requires Landlock, which this kernel does not enforce (%s); file access would be convention only", s.LandlockErr)
	case !s.Seccomp:
		out[Scoped] = fmt.Sprintf("the scoped class requires seccomp, which could not be installed here (%s)", s.SeccompErr)
	}
	if s.Tier() < TierKernelSealed {
		out[Sealed] = s.sealedGap()
	}
	return out
}

// sealedGap is the E-CAP-003 reason for sealed: the blocker and what the
// probe saw.
func (s HostSupport) sealedGap() string {
	switch {
	case !s.Linux:
		return BlockerNotLinux + ": this platform is not Linux: the sealed class needs Linux mount namespaces"
	case !s.Probed:
		return "the host was not probed (no trampoline binary to probe with), so no mount namespace is assumed"
	}
	var why string
	switch s.SealedBlocker {
	case BlockerAppArmor:
		why = "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) and no profile grants mur userns and mount (install /etc/apparmor.d/mur-sealed)"
	case BlockerNamespaceDenied:
		why = "a user + mount namespace could not be created"
	case BlockerIDMapDenied:
		why = "the uid/gid map of a new user namespace could not be written"
	case BlockerMountDenied:
		why = "a child in a new user + mount namespace could not mount"
	case BlockerKernel:
		why = "this kernel does not support user or mount namespaces"
	case BlockerLandlockMissing:
		return BlockerLandlockMissing + ": the sealed class requires Landlock, which this kernel does not enforce (" + s.LandlockErr + ")"
	case "":
		if !s.NetNS {
			return "the sealed class needs a network namespace of its own for the subprocess, which this host cannot create (" + s.NetNSErr + ")"
		}
		if s.LandlockABI == 0 || !s.Seccomp {
			return BlockerLandlockMissing + ": the sealed class requires Landlock and seccomp, which this host does not both enforce"
		}
	}
	if s.SealedErr != "" {
		why += " (" + s.SealedErr + ")"
	}
	return s.SealedBlocker + ": the sealed class needs a private mount namespace for its composed root, and " + why
}
