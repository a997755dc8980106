package stage

import (
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// Subprocesses is how a session's native subprocesses (shell commands,
// native tools, an agent CLI) are contained: what the code that starts
// them reads of the staged capsule, and the one egress they share.
type Subprocesses struct {
	workdir     string
	caps        *manifest.Capabilities
	containment Containment
	network     policy.Rules

	egressOnce sync.Once
	egress     *sandbox.Egress
}

// subprocesses is the session's one Subprocesses.
func (s *Staged) subprocesses() *Subprocesses {
	s.subOnce.Do(func() {
		s.sub = &Subprocesses{workdir: s.AccessibleDir, caps: s.Capsule.Capabilities,
			containment: s.Containment, network: s.Ceiling.Network}
	})
	return s.sub
}

// Scope is what every native subprocess of the session is contained to
// on the applied tier (security.md §9.2–§9.4): the accessible workdir,
// the shell.allow binaries found on pathEnv (the runtime's launch-time
// PATH) with their loaders and libraries, the interpreter_runtime
// directories, the unix socket grant; Landlock and seccomp when the tier
// has them, a network namespace of its own when the host can make one.
// libraries are objects (a native tool's staged binary) whose loader and
// libraries are granted but not the object itself, which runs from its
// sealed copy; keepFDs survive the exec (that copy's descriptor).
func (p *Subprocesses) Scope(pathEnv string, libraries []string, keepFDs ...int) sandbox.Scope {
	h := p.containment.Host
	caps := p.caps
	sc := sandbox.Scope{Workdir: p.workdir, WorkdirExec: caps.WorkdirExec(), PathEnv: pathEnv,
		Binaries: caps.ShellAllow(), Libraries: libraries, KeepFDs: keepFDs}
	if caps != nil && caps.Network != nil {
		sc.UnixSockets = caps.Network.UnixSockets
	}
	if caps != nil && caps.Shell != nil {
		for _, g := range caps.Shell.InterpreterRuntime {
			for _, d := range g.Dirs {
				sc.RuntimeDirs = append(sc.RuntimeDirs, sandbox.RuntimeDir{Path: d.Path, ListDir: d.ListDir})
			}
		}
	}
	if caps != nil && caps.Shell != nil {
		for _, g := range caps.Shell.StagedRuntime {
			sc.StagedRuntime = append(sc.StagedRuntime, g.SourcePath)
		}
	}
	switch h.Tier {
	case policy.TierKernelFull, policy.TierKernelSealed:
		sc.LandlockABI, sc.Seccomp = h.Support.LandlockABI, true
	case policy.TierSeccompOnly:
		sc.Seccomp = true
	}
	sc.NetNS = sc.Seccomp && h.Support.NetNS
	sc.Sealed = h.Tier == policy.TierKernelSealed
	sc.MountNS = h.Support.Sealed
	return sc
}

// ToolScope is Scope for a native tool's own process (binary, run from
// its sealed copy at keepFD). Under an advisory floor, the default, the
// tool may also run the host's programs from the system directories
// (security.md §9.4: Murmur gives native tools no file containment at
// all, so a tool that is a script calling mkdir works there); its files
// and network stay contained. A scoped or sealed floor asks that only the
// allowlisted binaries run: there the tool may run shell.allow's alone.
func (p *Subprocesses) ToolScope(pathEnv, binary string, keepFD int) sandbox.Scope {
	sc := p.Scope(pathEnv, []string{binary}, keepFD)
	sc.SystemExec = p.containment.Declared == policy.Advisory
	return sc
}

// checkSealedHome refuses, at the sealed tier, an accessible workdir
// whose synthetic HOME cannot be written into the sealed root's
// /etc/passwd (§10.3), before anything is created.
func (s *Staged) checkSealedHome() error {
	if s.Containment.Tier() != policy.TierKernelSealed {
		return nil
	}
	if err := sandbox.CheckSealedHome(filepath.Join(s.AccessibleDir, ".capsule-home")); err != nil {
		return &diag.Error{Code: sandbox.CodeSealedRoot, Msg: "the sealed containment class cannot hold this session: " + err.Error(), Err: err,
			Hint: "run from (or pass a --workdir at) a path without ':' or newlines"}
	}
	return nil
}

// Egress is what lets a contained subprocess reach the ceiling's
// capabilities.network.allow hosts from its namespace (§3.4): nil when
// the subprocesses get no namespace (nothing to serve) or the list is
// empty (loopback only). One per session, so DNS answers given to one
// call let its addresses through for the next.
func (p *Subprocesses) Egress(log *slog.Logger) *sandbox.Egress {
	ct := p.containment
	if ct.Tier() < policy.TierSeccompOnly || !ct.Host.Support.NetNS || len(p.network) == 0 {
		return nil
	}
	p.egressOnce.Do(func() {
		e := &sandbox.Egress{Log: log}
		for _, r := range p.network {
			e.Rules = append(e.Rules, sandbox.EgressRule{Host: r.Host, Port: r.Port, HasPort: r.HasPort})
		}
		p.egress = e
	})
	return p.egress
}

// StartsSubprocesses reports whether the capsule can start a native
// subprocess (shell.allow, spawn.allow, a native tool, or the agent CLI
// of transport: process): the condition of a cgroup scope (§12.2) and of
// the workdir checks that guard what such a subprocess could reach.
func (s *Staged) StartsSubprocesses() bool { return s.subprocessReasons() != "" }
