package stage

import (
	"errors"
	"os"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// EffectiveGrants is the capsule's grant and containment report: the
// trace's session_start.effective_grants (session.md) and what
// `mur run --explain-scope` prints.
type EffectiveGrants struct {
	DeclaredContainment string `json:"declared_containment"`
	AchievedContainment string `json:"achieved_containment"`
	FloorMet            bool   `json:"floor_met"`
	ShortfallReason     string `json:"shortfall_reason,omitempty"`
	// EnforcementTier is the host tier's mechanism (§9.1: the host's, not
	// the applied one); Tier its name.
	EnforcementTier          string                        `json:"enforcement_tier"`
	Tier                     string                        `json:"tier"`
	FilesystemScope          *string                       `json:"filesystem_scope"`
	WorkdirExec              bool                          `json:"workdir_exec"`
	NetworkAllow             []string                      `json:"network_allow"`
	UnixSockets              bool                          `json:"unix_sockets"`
	ShellAllow               []string                      `json:"shell_allow"`
	SpawnAllow               []string                      `json:"spawn_allow"`
	EnvAllow                 []string                      `json:"env_allow"`
	InterpreterRuntimeGrants []manifest.InterpreterRuntime `json:"interpreter_runtime_grants"`
	StagedRuntimeGrants      []manifest.StagedRuntime      `json:"staged_runtime_grants"`
	// Subprocess says what a native subprocess gets on this host.
	Subprocess SubprocessReport `json:"subprocess"`
	// Workdir is --explain-scope's report on a --workdir; nil without one
	// (and in the trace, whose session ran in it).
	Workdir *WorkdirReport `json:"workdir,omitempty"`
}

// SubprocessReport is the mechanism detail behind the tier.
type SubprocessReport struct {
	Landlock         bool   `json:"landlock"`
	LandlockABI      int    `json:"landlock_abi"`
	Seccomp          bool   `json:"seccomp"`
	NetworkNamespace bool   `json:"network_namespace"`
	Egress           string `json:"egress"`
	// Cgroup is how the session's cgroup scope is built (§12.2):
	// "cgroup2", "cgroup1", or "none (<reason>)".
	Cgroup string `json:"cgroup"`
}

// Explain decides containment for c as staging would (the floor from
// capabilities.containment and flag, the host from support) without
// staging anything, and reports the grants. A refusal staging would make
// is reported as the shortfall, not returned: only a bad flag is an
// error.
func Explain(c *manifest.Capsule, flag string, support policy.HostSupport) (EffectiveGrants, error) {
	if err := policy.ContainmentFlag(flag); err != nil {
		return EffectiveGrants{}, err
	}
	ct, declared := decide(c, flag, support)
	g := ct.EffectiveGrants(c)
	if err := refusals(c, ct, declared, support, os.Getenv("PATH")); err != nil {
		g.FloorMet, g.ShortfallReason = false, err.Error()
		var d *diag.Error
		if errors.As(err, &d) {
			g.ShortfallReason = string(d.Code) + ": " + d.Msg
		}
	}
	return g, nil
}

// EffectiveGrants reports c's grants under this containment decision.
func (ct Containment) EffectiveGrants(c *manifest.Capsule) EffectiveGrants {
	caps := c.Capabilities
	s := ct.Host.Support
	g := EffectiveGrants{DeclaredContainment: ct.Declared.String(), AchievedContainment: ct.Achieved.String(),
		FloorMet: ct.Achieved >= ct.Declared, EnforcementTier: ct.Mechanism(), Tier: ct.Tier().String(),
		WorkdirExec: caps.WorkdirExec(), NetworkAllow: nonNil(caps.NetworkAllow()), ShellAllow: nonNil(caps.ShellAllow()),
		SpawnAllow: nonNil(caps.SpawnAllow()), EnvAllow: nonNil(caps.EnvAllow()),
		InterpreterRuntimeGrants: []manifest.InterpreterRuntime{}, StagedRuntimeGrants: []manifest.StagedRuntime{}}
	if sc := caps.Scope(); sc != "" {
		g.FilesystemScope = &sc
	}
	if caps != nil && caps.Network != nil {
		g.UnixSockets = caps.Network.UnixSockets
	}
	if caps != nil && caps.Shell != nil {
		g.InterpreterRuntimeGrants = append(g.InterpreterRuntimeGrants, caps.Shell.InterpreterRuntime...)
		g.StagedRuntimeGrants = append(g.StagedRuntimeGrants, caps.Shell.StagedRuntime...)
	}
	kernel := ct.Tier() >= policy.TierKernelFull
	g.Subprocess = SubprocessReport{Landlock: kernel, Seccomp: ct.Tier() >= policy.TierSeccompOnly,
		NetworkNamespace: ct.Tier() >= policy.TierSeccompOnly && s.NetNS, Egress: "unrestricted (no network namespace)"}
	if kernel {
		g.Subprocess.LandlockABI = s.LandlockABI
	}
	g.Subprocess.Cgroup = s.Cgroup
	if s.Cgroup == "" {
		g.Subprocess.Cgroup = "none (" + s.CgroupErr + ")"
	}
	if g.Subprocess.NetworkNamespace {
		g.Subprocess.Egress = "only capabilities.network.allow hosts and ports, spliced from the runtime; DNS answered for allowed names only"
		if len(g.NetworkAllow) == 0 {
			g.Subprocess.Egress = "loopback only (capabilities.network.allow is empty)"
		}
	}
	return g
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
