package stage

import (
	"fmt"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// ceiling validates the capsule-wide block first thing, before any store
// is read (security.md §10.2 step 1): network rules (E-CAP-001) and the
// scope (E-CAP-002). Preopen is filled in once the workdir exists.
func ceiling(c *manifest.Capsule) (Grants, error) {
	caps := c.Capabilities
	rules, err := policy.NetworkRules(caps, "capabilities")
	if err != nil {
		return Grants{}, err
	}
	if err := caps.CheckScope("capabilities"); err != nil {
		return Grants{}, err
	}
	g := Grants{Network: rules, Scope: caps.Scope(), Limits: EngineLimits(policy.GuestLimits(caps, false)),
		EnvAllow: caps.EnvAllow(), Resources: policy.SubprocessLimits(caps)}
	if caps != nil && caps.Shell != nil {
		g.ShellStripEnv, g.ShellBaselineEnv = caps.Shell.StripEnv, caps.Shell.BaselineEnv
	}
	return g, nil
}

// artifactGrants lowers the operator's per-artifact block against the
// ceiling (security.md §1, §3.3, §4), after the artifact resolved: WASM
// tools and drivers narrow the ceiling, hooks get exactly their own grant
// (default deny), native tools and skills run on the ceiling. Scope is
// kept relative here; place turns it into a directory.
func artifactGrants(c *manifest.Capsule, ceil Grants, a *Artifact, index int, userWorkdir bool) (Grants, []manifest.Warning, error) {
	g := ceil
	if a.Kind == KindNative || a.Kind == KindSkill {
		g.InheritsNetwork = a.Kind == KindNative
		if a.Kind == KindSkill {
			g.Network = nil
		}
		return g, nil, nil
	}
	rules, inherit, warns, err := policy.ArtifactNetwork(c, a.Ref)
	if err != nil {
		return Grants{}, nil, err
	}
	g.Network, g.InheritsNetwork = rules, inherit
	own := a.Ref.Capabilities
	where := fmt.Sprintf("artifacts[%d].capabilities", index)
	if err := own.CheckScope(where); err != nil {
		return Grants{}, nil, err
	}
	if err := checkReservedScope(own.Scope(), where, a.onStageHook(), userWorkdir); err != nil {
		return Grants{}, nil, err
	}
	// Only the artifact's own scope counts: without one a tool or driver
	// gets the whole accessible workdir and a hook no directory at all.
	// (Murmur validates the capsule-wide scope but applies it to nothing.)
	g.Scope = own.Scope()
	if a.Role == RoleHook {
		g.Limits = EngineLimits(policy.GuestLimits(c.Capabilities, true))
	}
	return g, warns, nil
}
