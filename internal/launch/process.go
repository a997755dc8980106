package launch

import (
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/tools"
)

// ProcessTools are what a transport: process capsule runs: its staged
// tools and shell runner built as for the loop (no driver), and how its
// agent CLI is started (session.md §6).
type ProcessTools struct {
	// Tools, Allowlist, Shell and MCP are AgentTools'; Driver is nil.
	AgentTools
	// Env is the CLI's environment, built like a native tool's
	// (security.md §7: no runtime pairs, credentials stripped, synthetic
	// HOME) from the capsule-wide shell settings.
	Env tools.SubprocessEnv
	// Sandbox applies the capsule's capabilities.resources to the CLI and
	// starts it in the session's cgroup scope (Options.Resources), so
	// nothing it starts outlives the session.
	Sandbox *sandbox.Trampoline
}

// NewProcessTools prepares the staged transport: process capsule
// opts.Staged. Any failure is a coded error: the capsule cannot run.
func NewProcessTools(opts Options) (*ProcessTools, error) {
	o := opts.withDefaults()
	s := o.Staged
	if inf := s.Capsule.Inference; inf == nil || inf.Transport != "process" {
		return nil, &diag.Error{Code: CodeRun, Msg: "inference.transport is not process"}
	}
	if o.Trampoline == "" {
		return nil, &diag.Error{Code: CodeRun,
			Msg: "no rlimit trampoline configured, and the agent CLI never runs without capabilities.resources applied"}
	}
	_, tb, shell, err := newAgentToolbox(&o)
	if err != nil {
		return nil, err
	}
	servers, err := newMCP(&o)
	if err != nil {
		return nil, &diag.Error{Code: CodeIO, Err: err, Msg: err.Error()}
	}
	g := s.Ceiling
	return &ProcessTools{
		AgentTools: AgentTools{Tools: tb.tools, Allowlist: tb.allowlist, Shell: shell, MCP: servers},
		Env:        tools.SubprocessEnv{Getenv: o.Getenv, BaselineEnv: g.ShellBaselineEnv, StripEnv: g.ShellStripEnv},
		Sandbox:    o.trampoline(sandbox.RlimitsFor(g.Resources), nil, nil),
	}, nil
}
