package launch

import (
	"fmt"

	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/tools"
)

// newShell builds the runner of the capsule's capabilities.shell.allow
// binaries, nil when there are none. Commands start like native tools:
// through the rlimit trampoline (refused without one), in the accessible
// workdir, with the subprocess environment plus the runtime's MURMUR_*
// pairs (security.md §7 step 3), MURMUR_CAPSULE_URL among them once the
// agent capsule's port is bound.
func newShell(o *Options) (tools.ShellRunner, error) {
	s := o.Staged
	if len(s.ShellTools) == 0 {
		return nil, nil
	}
	if o.Trampoline == "" {
		return nil, fmt.Errorf("preparing the shell tools: no rlimit trampoline configured, and a shell command never runs without capabilities.resources applied")
	}
	bins := make([]tools.ShellBinary, len(s.ShellTools))
	for i, st := range s.ShellTools {
		bins[i] = tools.ShellBinary{Name: st.Name, Interpreter: st.Interpreter}
	}
	g := s.Ceiling
	return tools.NewShell(tools.ShellConfig{
		Binaries: bins,
		Workdir:  s.AccessibleDir,
		Env: tools.SubprocessEnv{Getenv: o.Getenv, BaselineEnv: g.ShellBaselineEnv, StripEnv: g.ShellStripEnv,
			Overrides: identity(o)},
		Sandbox: o.trampoline(sandbox.RlimitsFor(g.Resources), s.Subprocesses.Scope(pathEnv(o), nil).Plan(sandbox.HostNetNS()),
			s.Subprocesses.Egress(o.Log)),
		MaxLogBytes: g.Resources.MaxFileSizeBytes,
		Log:         o.Log,
	}), nil
}
