package stage

import (
	"errors"
	"os"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// EffectiveGrants is the capsule's grant and containment report: the
// trace's session_start.effective_grants (session.md) and, with Workdir,
// what `mur run --explain-scope` prints; one value for both, so they
// cannot drift apart.
type EffectiveGrants struct {
	trace.EffectiveGrants
	// Workdir is --explain-scope's report on a --workdir; nil without one
	// (and in the trace, whose session ran in it).
	Workdir *WorkdirReport `json:"workdir,omitempty"`
	// MCPServers is the mcp block (a mur-go extension); nil without one.
	// It is the report's alone: the trace's effective_grants keep
	// Murmur's fields.
	MCPServers []MCPServerReport `json:"mcp_servers,omitempty"`
}

// SubprocessReport is the mechanism detail behind the tier.
type SubprocessReport = trace.SubprocessReport

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
		reason := err.Error()
		var d *diag.Error
		if errors.As(err, &d) {
			reason = string(d.Code) + ": " + d.Msg
		}
		g.FloorMet, g.ShortfallReason = false, &reason
	}
	return EffectiveGrants{EffectiveGrants: g, MCPServers: mcpReport(c)}, nil
}

// EffectiveGrants reports c's grants under this containment decision, as
// the trace records them; a shortfall's reason is Explain's to add (a run
// whose floor is not met never starts).
func (ct Containment) EffectiveGrants(c *manifest.Capsule) trace.EffectiveGrants {
	caps := c.Capabilities
	s := ct.Host.Support
	g := trace.EffectiveGrants{DeclaredContainment: ct.Declared.String(), AchievedContainment: ct.Achieved.String(),
		FloorMet: ct.Achieved >= ct.Declared, EnforcementTier: ct.Mechanism(), Tier: ct.Tier().String(),
		WorkdirExec: caps.WorkdirExec(), NetworkAllow: nonNil(caps.NetworkAllow()), ShellAllow: nonNil(caps.ShellAllow()),
		SpawnAllow: nonNil(caps.SpawnAllow()), EnvAllow: nonNil(caps.EnvAllow()),
		InterpreterRuntimeGrants: []trace.InterpreterRuntime{}, StagedRuntimeGrants: []trace.StagedRuntime{}}
	if sc := caps.Scope(); sc != "" {
		g.FilesystemScope = &sc
	}
	if caps != nil && caps.Network != nil {
		g.UnixSockets = caps.Network.UnixSockets
	}
	if caps != nil && caps.Shell != nil {
		for _, r := range caps.Shell.InterpreterRuntime {
			ir := trace.InterpreterRuntime{Binary: r.Binary, Dirs: []trace.InterpreterDir{}}
			for _, d := range r.Dirs {
				ir.Dirs = append(ir.Dirs, trace.InterpreterDir{Path: d.Path, ListDir: d.ListDir})
			}
			g.InterpreterRuntimeGrants = append(g.InterpreterRuntimeGrants, ir)
		}
		for _, r := range caps.Shell.StagedRuntime {
			g.StagedRuntimeGrants = append(g.StagedRuntimeGrants, trace.StagedRuntime{Binary: r.Binary, SourcePath: r.SourcePath, Pin: r.Pin})
		}
	}
	kernel := ct.Tier() >= policy.TierKernelFull
	g.Subprocess = trace.SubprocessReport{Landlock: kernel, Seccomp: ct.Tier() >= policy.TierSeccompOnly,
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
