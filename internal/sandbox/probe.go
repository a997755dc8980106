package sandbox

import (
	"context"
	"sync"

	"github.com/mur-go/mur/internal/policy"
)

// probeArg makes the trampoline run the host probe instead of a tool.
const probeArg = "probe"

// Prober runs the live host probes once (security.md §9.1): each is a
// forked child of Self in ExecMode that really applies the mechanism, so
// what it reports is what a tool would get, never a guess from a kernel
// version. The result is cached in the Prober; whoever owns it (the CLI,
// a server) decides how long it lives.
type Prober struct {
	Self string

	once sync.Once
	res  policy.HostSupport
}

// NewProber probes through self (the mur binary).
func NewProber(self string) *Prober { return &Prober{Self: self} }

// Probe returns the host's support, probing on the first call. A nil
// Prober, or one without Self, reports nothing probed.
func (p *Prober) Probe(ctx context.Context) policy.HostSupport {
	if p == nil || p.Self == "" {
		return withCgroup(ctx, policy.HostSupport{Linux: isLinux})
	}
	// The result serves every later caller, so no caller's cancellation
	// may end up in it (a task canceled while it probed would otherwise
	// leave "context canceled" as the host's answer for the process's
	// life): the probe runs to its end, each child bounded by
	// probeTimeout.
	p.once.Do(func() {
		pctx := context.WithoutCancel(ctx)
		p.res = withCgroup(pctx, probe(pctx, p.Self))
	})
	return p.res
}

// withCgroup adds how a session's cgroup scope would be built (§12.2).
func withCgroup(ctx context.Context, s policy.HostSupport) policy.HostSupport {
	c := ProbeCgroup(ctx)
	s.Cgroup, s.CgroupErr, s.CgroupNote = c.Mechanism, c.Reason, c.Note
	return s
}
