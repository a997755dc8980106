package stage

import (
	"github.com/mur-go/mur/manifest"
	"github.com/mur-go/mur/policy"
)

// Containment is the session's containment decision (security.md §10).
type Containment struct {
	// Declared is the effective floor (max of capabilities.containment
	// and --containment), Achieved what this host holds the capsule to.
	Declared, Achieved policy.Class
	// Host is what the W-SEC warnings were computed from.
	Host policy.Host
}

// checkCapabilities is §10.2 step 2 and the resources mur-go cannot
// enforce, right after the ceiling parsed and before any store is read:
// a floor the host cannot achieve is E-CAP-003, a declared cgroup_* or
// workdir_max_bytes is refused rather than ignored.
func checkCapabilities(c *manifest.Capsule, flag string) (Containment, error) {
	if err := policy.ContainmentFlag(flag); err != nil {
		return Containment{}, err
	}
	declaredHere := ""
	if c.Capabilities != nil {
		declaredHere = c.Capabilities.Containment
	}
	floor, declared := policy.Floor(declaredHere, flag)
	host := policy.CurrentHost(floor, nil)
	workdirExec := c.Capabilities.WorkdirExec()
	if err := policy.CheckContainment(floor, declared, host, workdirExec); err != nil {
		return Containment{}, err
	}
	if err := policy.CheckResources(c.Capabilities); err != nil {
		return Containment{}, err
	}
	return Containment{Declared: floor, Achieved: policy.Achieved(host, workdirExec), Host: host}, nil
}

// securityWarnings are the host-dependent W-SEC warnings, once staging
// knows which tools are native.
func (s *Session) securityWarnings() {
	var native []string
	for _, a := range s.Artifacts {
		if a.Kind == KindNative {
			native = append(native, a.Name)
		}
	}
	s.Containment.Host.NativeTools = native
	s.SecurityWarnings = policy.SecurityWarnings(s.Capsule, s.Containment.Host)
}
