package agent

import (
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/format/manifest"
)

// sessionStart is an attempt's session_start record; maxTurns is the
// turns the attempt may still use.
func (l *loop) sessionStart(maxTurns uint32) *trace.SessionStart {
	c := l.s.Capsule
	var declared []string
	for _, a := range c.Artifacts {
		if a.Runtime == manifest.RuntimeTool {
			declared = append(declared, a.Name)
		}
	}
	g := l.grants()
	rec := &trace.SessionStart{CapsuleName: c.Name, CapsuleVersion: c.Version, Model: c.Inference.Model, MaxTurns: maxTurns,
		Capabilities: capabilityNames(c), ToolsDeclared: orEmpty(declared),
		ContainmentDeclared: g.DeclaredContainment, ContainmentAchieved: g.AchievedContainment,
		WorkdirExec: g.WorkdirExec, EffectiveGrants: g,
		SystemPromptSource: l.prompt.source, SystemPromptSHA256: l.prompt.sha256()}
	if c.IncludeToolOutput && l.prompt.resolved() {
		rec.SystemPrompt = &l.prompt.text
	}
	for _, w := range l.s.SecurityWarnings {
		rec.SecurityWarnings = append(rec.SecurityWarnings, trace.Warning{Code: w.Code, Message: w.Msg})
	}
	return rec
}

// capabilityNames are the capability kinds the capsule uses: network
// (allow non-empty), filesystem (a scope), shell (allow non-empty).
func capabilityNames(c *manifest.Capsule) []string {
	caps := c.Capabilities
	out := []string{}
	if len(caps.NetworkAllow()) > 0 {
		out = append(out, "network")
	}
	if caps.Scope() != "" {
		out = append(out, "filesystem")
	}
	if len(caps.ShellAllow()) > 0 {
		out = append(out, "shell")
	}
	return out
}

// grants is effective_grants: staging's containment decision and the
// capsule-wide grants, the object --explain-scope --json prints.
func (l *loop) grants() trace.EffectiveGrants {
	g := l.s.Containment.EffectiveGrants(l.s.Capsule)
	if !g.FloorMet {
		reason := "the host's containment is weaker than the declared floor"
		g.ShortfallReason = &reason
	}
	return g
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
