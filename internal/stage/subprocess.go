package stage

import (
	"log/slog"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// SubprocessScope is what every native subprocess of the session (shell
// commands, native tools) is contained to on the applied tier
// (security.md §9.2–§9.4): the accessible workdir, the shell.allow
// binaries found on pathEnv (the runtime's launch-time PATH) with their
// loaders and libraries, the interpreter_runtime directories, the unix
// socket grant; Landlock and seccomp when the tier has them, a network
// namespace of its own when the host can make one. libraries are objects
// (a native tool's staged binary) whose loader and libraries are granted
// but not the object itself, which runs from its sealed copy; keepFDs
// survive the exec (that copy's descriptor).
func (s *Session) SubprocessScope(pathEnv string, libraries []string, keepFDs ...int) sandbox.Scope {
	h := s.Containment.Host
	caps := s.Capsule.Capabilities
	sc := sandbox.Scope{Workdir: s.AccessibleDir, WorkdirExec: caps.WorkdirExec(), PathEnv: pathEnv,
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

// checkSealedHome refuses, at the sealed tier, an accessible workdir
// whose synthetic HOME cannot be written into the sealed root's
// /etc/passwd (§10.3), before anything is created.
func (s *Session) checkSealedHome() error {
	if s.Containment.Tier() != policy.TierKernelSealed {
		return nil
	}
	if err := sandbox.CheckSealedHome(filepath.Join(s.AccessibleDir, ".capsule-home")); err != nil {
		return &diag.Error{Code: sandbox.CodeSealedRoot, Msg: "the sealed containment class cannot hold this session: " + err.Error(), Err: err,
			Hint: "run from (or pass a --workdir at) a path without ':' or newlines"}
	}
	return nil
}

// SubprocessEgress is what lets a contained subprocess reach the
// ceiling's capabilities.network.allow hosts from its namespace (§3.4):
// nil when the subprocesses get no namespace (nothing to serve) or the
// list is empty (loopback only). One per session, so DNS answers given to
// one call let its addresses through for the next.
func (s *Session) SubprocessEgress(log *slog.Logger) *sandbox.Egress {
	if s.Containment.Tier() < policy.TierSeccompOnly || !s.Containment.Host.Support.NetNS || len(s.Ceiling.Network) == 0 {
		return nil
	}
	s.egressOnce.Do(func() {
		e := &sandbox.Egress{Log: log}
		for _, r := range s.Ceiling.Network {
			e.Rules = append(e.Rules, sandbox.EgressRule{Host: r.Host, Port: r.Port, HasPort: r.HasPort})
		}
		s.egress = e
	})
	return s.egress
}
