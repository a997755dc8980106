// Package policy is Murmur's capability policy, in one place: what a
// guest or subprocess of a capsule may reach, computed from the parsed
// manifest.
//
//   - Network rules (security.md §3): the rule syntax (ParseNetRule, with
//     full UTS #46 IDNA so a rule names the host a URL with the same text
//     reaches), matching (Rules, which the WASI host takes as its
//     wasip2.NetPolicy), and narrowing a per-artifact list to the ceiling
//     (Covers, ArtifactNetwork).
//   - Environment: the credential strip list and the env.allow filter a
//     guest starts from (GuestEnv, Stripped).
//   - Limits: the one set of defaults for undeclared limits and resources
//     (GuestLimits, SubprocessLimits).
//   - Containment (security.md §9–§10): the host's tier from what the
//     live probes found (HostSupport, probed by sandbox.Prober), the
//     declared floor (Floor, the --containment check ContainmentFlag),
//     the class the host achieves (Achieved, on NewHost, which applies
//     KernelSealed only under a sealed floor) and the refusals E-CAP-003
//     (CheckContainment, with the reason from Gaps: for sealed the
//     SealedBlocker the probe found), E-CAP-004 (CheckStagedRuntime),
//     E-CAP-006 (CheckInterpreted) and E-CAP-005 (CheckNetNS).
//   - E-RUN-012 (CheckCgroup, NoCgroup): a capsule that can spawn a
//     subprocess (its transport: process agent CLI included) on a Linux
//     host where no cgroup scope can be built.
//   - The host-dependent W-SEC warnings (SecurityWarnings) and their
//     stderr and bootstrap.log lines (LaunchLine, InBootstrapLog).
//
// The manifest package parses and validates the file and keeps network
// rules as the strings written, with their positions; it imports no
// runtime package. Rule syntax is checked here, where the runtime uses
// it: NetworkRules returns E-CAP-001 as a *diag.Error carrying the
// manifest path, line and column, so there is one rule parser and one
// entry cannot mean two things. Murmur checks rules when it stages a
// session, not when it parses, which is also why the check belongs here
// rather than in the parser.
package policy
