package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/policy"
)

// Scope is what a contained subprocess may reach, as the runtime knows it
// at launch; Plan turns it into the trampoline's Landlock rules and
// switches (security.md §9.2–§9.4).
type Scope struct {
	// LandlockABI is the host's fully enforced Landlock ABI (0: none);
	// NetNS is true when the subprocess gets its own user and network
	// namespace; Seccomp when the syscall policy is installed.
	LandlockABI int
	NetNS       bool
	Seccomp     bool
	// Sealed composes the subprocess's root in a private mount namespace
	// (the sealed class, §10.3); it needs NetNS and Landlock.
	Sealed bool
	// MountNS is true when the host's sealed probe showed a child can
	// mount in a user + mount namespace of its own: then, with NetNS and
	// Landlock, a scoped plan mounts the workdir noexec unless
	// WorkdirExec.
	MountNS bool
	// Workdir is the accessible workdir; WorkdirExec grants Execute in it
	// (capabilities.filesystem.workdir_exec).
	Workdir     string
	WorkdirExec bool
	// UnixSockets is capabilities.network.unix_sockets.
	UnixSockets bool
	// Binaries are the executables the subprocess may run, each with its
	// loader and libraries: capabilities.shell.allow entries as found on
	// PathEnv (every match), absolute paths as they are.
	Binaries []string
	PathEnv  string
	// Libraries are objects whose loader, libraries and #! interpreter
	// are granted Execute, but not the object itself (a native tool's
	// staged binary, which runs from its sealed copy).
	Libraries []string
	// SystemExec grants Execute and ReadFile on the system directories
	// (SystemDirs): a native tool under an advisory floor may run the
	// host's programs, as Murmur's native tools may, while its files and
	// network stay contained like every subprocess's.
	SystemExec bool
	// RuntimeDirs are capabilities.shell.interpreter_runtime directories;
	// StagedRuntime the staged_runtime source paths.
	RuntimeDirs   []RuntimeDir
	StagedRuntime []string
	// KeepFDs are descriptors the subprocess must inherit.
	KeepFDs []int
}

// RuntimeDir is one interpreter_runtime directory grant.
type RuntimeDir struct {
	Path    string
	ListDir bool
}

// devices are the device files of the scoped tier and what each grants.
func devices() []PathRule {
	return []PathRule{{"/dev/null", ReadFile | WriteFile}, {"/dev/zero", ReadFile}, {"/dev/urandom", ReadFile}}
}

// Plan is the containment plan for s: nil when nothing beyond rlimits can
// be applied (no Landlock and no seccomp on this host).
func (s Scope) Plan(hostNetNS string) *Plan {
	if s.LandlockABI == 0 && !s.Seccomp && !s.NetNS {
		return nil
	}
	p := &Plan{Seccomp: s.Seccomp, UnixSockets: s.UnixSockets, KeepFDs: s.KeepFDs, LandlockABI: s.LandlockABI}
	if s.Seccomp {
		// On failure the trampoline assembles it, and fails the same way.
		p.SeccompBPF, _ = seccompProgram(s.UnixSockets)
	}
	if s.NetNS {
		p.NetNS, p.HostNetNS = true, hostNetNS
	}
	if s.LandlockABI == 0 {
		return p
	}
	handled := abiRights(s.LandlockABI)
	add := func(path string, a Access) {
		if path == "" {
			return
		}
		if a &= handled; a == 0 {
			return
		}
		for i := range p.Rules {
			if p.Rules[i].Path == path {
				p.Rules[i].Access |= a
				return
			}
		}
		p.Rules = append(p.Rules, PathRule{Path: path, Access: a})
	}
	workdir, err := filepath.EvalSymlinks(s.Workdir)
	if err == nil {
		add(workdir, WorkdirAccess(s.WorkdirExec))
	}
	var dirs []string // where the executables live, for the sealed root
	grant := func(f string) {
		add(f, Execute|ReadFile)
		dirs = append(dirs, filepath.Dir(f))
	}
	for _, b := range s.Binaries {
		for _, match := range lookPathAll(b, s.PathEnv) {
			for _, f := range ExecClosure(match, s.PathEnv) {
				grant(f)
			}
		}
	}
	for _, l := range s.Libraries {
		if closure := ExecClosure(l, s.PathEnv); len(closure) > 1 {
			for _, f := range closure[1:] {
				grant(f)
			}
		}
	}
	if s.SystemExec {
		for _, d := range SystemDirs() {
			if real, err := filepath.EvalSymlinks(d); err == nil {
				add(real, Execute|ReadFile)
			}
		}
	}
	for _, d := range s.RuntimeDirs {
		a := Execute | ReadFile
		if d.ListDir {
			a |= ReadDir
		}
		add(d.Path, a)
	}
	for _, d := range s.StagedRuntime {
		add(d, Execute|ReadFile|ReadDir)
	}
	nodes := devices()
	if s.Sealed {
		// An unresolvable workdir still gets a sealed plan, whose child
		// then fails to open it: never a silent downgrade.
		if err != nil {
			workdir = s.Workdir
		}
		p.Sealed = s.sealedRoot(workdir, dirs)
		nodes = nil
		for _, r := range sealedRules(WorkdirAccess(s.WorkdirExec)) {
			add(r.Path, r.Access)
		}
	}
	if !s.Sealed && s.MountNS && s.NetNS && !s.WorkdirExec && err == nil {
		p.NoexecWorkdir = workdir
	}
	for _, d := range nodes {
		if fileOrDevice(d.Path) {
			add(d.Path, d.Access)
		}
	}
	return p
}

// lookPathAll is every executable match of name on pathEnv, canonical
// and deduplicated; a name with a slash is itself.
func lookPathAll(name, pathEnv string) []string {
	var cands []string
	if strings.Contains(name, "/") {
		cands = []string{name}
	} else {
		for _, d := range filepath.SplitList(pathEnv) {
			if d != "" {
				cands = append(cands, filepath.Join(d, name))
			}
		}
	}
	var out []string
	for _, c := range cands {
		if !policy.IsExecutable(c) {
			continue
		}
		if real, err := filepath.EvalSymlinks(c); err == nil && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

func fileOrDevice(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
