package stage

import (
	"context"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// Containment is the session's containment decision (security.md §10),
// what the trace's effective_grants and session_start.containment_achieved
// record.
type Containment struct {
	// Declared is the effective floor (max of capabilities.containment
	// and --containment), Achieved what this host holds the capsule to.
	Declared, Achieved policy.Class
	// Host is what the W-SEC warnings were computed from; Host.Tier is
	// the enforcement tier applied to subprocesses, Host.Mechanism() the
	// host tier's name.
	Host policy.Host
}

// Tier is the enforcement tier native subprocesses run under.
func (c Containment) Tier() policy.Tier { return c.Host.Tier }

// Mechanism names the host tier for --explain-scope and the trace.
func (c Containment) Mechanism() string { return c.Host.Mechanism() }

// checkCapabilities is §10.2 steps 2–5 and the cgroup scope's check,
// right after the ceiling parsed and before any store is read:
// a floor the host cannot achieve is E-CAP-003, a staged_runtime grant
// below sealed E-CAP-004, a script entry the sealed root cannot reach
// E-CAP-006, shell or spawn without a network namespace E-CAP-005; shell
// or spawn with no way to build a cgroup scope E-RUN-012. support is what
// the host probes found, pathEnv the PATH the shell.allow entries resolve
// on.
func checkCapabilities(c *manifest.Capsule, flag string, support policy.HostSupport, pathEnv string) (Containment, error) {
	if err := policy.ContainmentFlag(flag); err != nil {
		return Containment{}, err
	}
	ct, declared := decide(c, flag, support)
	if err := refusals(c, ct, declared, support, pathEnv); err != nil {
		return Containment{}, err
	}
	return ct, nil
}

// decide is the containment decision: the floor (capabilities.containment
// and --containment, strongest wins), the host and the class achieved.
func decide(c *manifest.Capsule, flag string, support policy.HostSupport) (Containment, bool) {
	declaredHere := ""
	if c.Capabilities != nil {
		declaredHere = c.Capabilities.Containment
	}
	floor, declared := policy.Floor(declaredHere, flag)
	host := policy.NewHost(support, floor, nil)
	return Containment{Declared: floor, Achieved: policy.Achieved(host, c.Capabilities.WorkdirExec()), Host: host}, declared
}

// refusals are §10.2 steps 2–5 in order; pathEnv is the launch-time PATH
// the shell.allow entries resolve on.
func refusals(c *manifest.Capsule, ct Containment, declared bool, support policy.HostSupport, pathEnv string) error {
	if err := policy.CheckContainment(ct.Declared, declared, ct.Host, c.Capabilities.WorkdirExec()); err != nil {
		return err
	}
	if err := policy.CheckStagedRuntime(c.Capabilities, ct.Declared); err != nil {
		return err
	}
	if err := policy.CheckInterpreted(c.Capabilities, ct.Declared, pathEnv); err != nil {
		return err
	}
	if err := policy.CheckNetNS(c.Capabilities, support); err != nil {
		return err
	}
	return policy.CheckCgroup(c, support)
}

// securityWarnings are the host-dependent W-SEC warnings, once staging
// knows which tools are native; under a sealed floor the compiler
// drivers are asked for their helpers on pathEnv (W-SEC-012).
func (s *Staged) securityWarnings(ctx context.Context, pathEnv string) {
	var native []string
	for _, a := range s.Artifacts {
		if a.Kind == KindNative {
			native = append(native, a.Name)
		}
	}
	s.Containment.Host.NativeTools = native
	if s.Containment.Declared == policy.Sealed {
		s.Containment.Host.UncoveredHelpers = uncoveredHelpers(ctx, s.Capsule.Capabilities, pathEnv)
	}
	s.SecurityWarnings = policy.SecurityWarnings(s.Capsule, s.Containment.Host)
}
