package manifest

import (
	"fmt"
	"strings"
)

// Warning codes. W-SEC-* are Murmur's; W-MAN-* are mur-go's own for
// authoring problems Murmur lets pass silently or prints without a code.
const (
	// WarnUnknownKey: a key the schema does not know (typo, wrong level).
	WarnUnknownKey = "W-MAN-001"
	// WarnSourceVersion: a local-source artifact also declares a version.
	WarnSourceVersion = "W-MAN-002"
	// WarnUnknownScorer: an eval scorer type that is skipped.
	WarnUnknownScorer = "W-MAN-003"
	// WarnLiteralInterpolation: ${VAR} where it is not interpolated.
	WarnLiteralInterpolation = "W-MAN-004"
	// WarnArtifactCapabilities: capabilities in an artifact's own manifest,
	// which are never read.
	WarnArtifactCapabilities = "W-MAN-005"

	WarnShellEnvOnly       = "W-SEC-001"
	WarnShellSeccompOnly   = "W-SEC-002"
	WarnBashNetwork        = "W-SEC-003"
	WarnLiteralSecret      = "W-SEC-004"
	WarnShellKernel        = "W-SEC-005"
	WarnHookInert          = "W-SEC-006"
	WarnNetworkDropped     = "W-SEC-007"
	WarnToolInert          = "W-SEC-008"
	WarnInterpreterRuntime = "W-SEC-009"
	WarnNoAggregateBound   = "W-SEC-010"
	WarnWorkdirExec        = "W-SEC-011"
	WarnCompilerHelper     = "W-SEC-012"
)

// Warning is a non-fatal finding. The package never prints it; the CLI
// decides where it goes.
type Warning struct {
	Code   string
	File   string
	Path   string
	Line   int
	Column int
	Msg    string
	Hint   string
}

// DocLink is the diagnostics page anchor Murmur prints after a W-SEC line.
func (w Warning) DocLink() string {
	if !strings.HasPrefix(w.Code, "W-SEC-") {
		return ""
	}
	return "https://docs.murmur.nexus/murmur-nexus/murmur/reference/diagnostics/#" + strings.ToLower(w.Code)
}

// String renders "murmur.yaml:3:5: warning[W-MAN-001]: <msg> (hint: ...)".
func (w Warning) String() string {
	e := Error{File: w.File, Line: w.Line, Column: w.Column}
	s := fmt.Sprintf("%s: warning[%s]: %s", e.location(), w.Code, w.Msg)
	if w.Hint != "" {
		s += " (" + w.Hint + ")"
	}
	return s
}

// Tier is the subprocess-enforcement tier the host achieved (security
// spec §9), strongest last.
type Tier int

const (
	TierEnvironmentOnly Tier = iota // non-Linux: env stripping only
	TierSeccompOnly                 // Linux without Landlock
	TierKernelFull                  // Landlock + seccomp
	TierKernelSealed                // mount namespace + Landlock + seccomp
)

// Host is what the launch/staging code knows about where the capsule runs;
// the host-dependent W-SEC warnings are a function of it and the manifest.
type Host struct {
	Tier  Tier
	Linux bool
	// DeclaredFloor is the resolved containment floor
	// (max of config, manifest and --containment); "" = advisory.
	DeclaredFloor string
	// NativeTools names declared tools whose own manifest says
	// implementation: native (known after registry resolution).
	NativeTools []string
	// UncoveredHelpers are compiler helpers the staging probe found with
	// no Execute-carrying grant under the sealed floor.
	UncoveredHelpers []CompilerHelper
}

// CompilerHelper is one W-SEC-012 finding.
type CompilerHelper struct {
	Driver, Helper, Path string
}

// SecurityWarnings returns the launch/staging W-SEC warnings (001–003,
// 005, 006, 008–012) for this capsule on host, in Murmur's order. W-SEC-004
// comes from the secret scan and W-SEC-007 from ArtifactNetwork.
func (c *Capsule) SecurityWarnings(host Host) []Warning {
	var out []Warning
	add := func(code, path, msg string) {
		out = append(out, Warning{Code: code, Path: path, Msg: msg})
	}
	caps := c.Capabilities
	shell := caps.ShellAllow()
	if len(shell) > 0 {
		switch host.Tier {
		case TierEnvironmentOnly:
			add(WarnShellEnvOnly, "capabilities.shell.allow", "capabilities.shell.allow is non-empty, but this platform has no kernel sandbox for subprocesses; only the environment is controlled (synthetic HOME, credential variables stripped)")
			if contains(shell, "bash") && len(caps.NetworkAllow()) > 0 {
				add(WarnBashNetwork, "capabilities.shell.allow", "capabilities.shell.allow includes \"bash\" and capabilities.network.allow is non-empty, but nothing on this platform limits the network connections bash itself makes")
			}
		case TierSeccompOnly:
			add(WarnShellSeccompOnly, "capabilities.shell.allow", "capabilities.shell.allow is non-empty and this kernel has no Landlock (Linux < 5.13): subprocess file access outside the workdir is not restricted, only seccomp filters apply")
		case TierKernelFull:
			add(WarnShellKernel, "capabilities.shell.allow", "capabilities.shell.allow is non-empty; subprocesses run under Landlock and seccomp: files outside the workdir are denied except the allowed binaries, their libraries and a fixed device set, and unix sockets are refused unless declared")
		case TierKernelSealed:
			add(WarnShellKernel, "capabilities.shell.allow", "capabilities.shell.allow is non-empty; subprocesses run sealed in a private mount namespace with only the workdir writable; host /proc stays visible")
		}
	}
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		p := index("artifacts", i) + ".capabilities"
		inert := a.Capabilities.InertSubBlocks()
		switch {
		case a.Runtime == RuntimeHook && len(inert) > 0:
			add(WarnHookInert, p, fmt.Sprintf("hook '%s' declares capabilities.%s, which do not apply to a hook — only capabilities.network and capabilities.filesystem govern a hook",
				a.Name, strings.Join(inert, ", capabilities.")))
		case a.Runtime == RuntimeTool && a.Capabilities != nil && contains(host.NativeTools, a.Name):
			add(WarnToolInert, p, fmt.Sprintf("artifact '%s' declares per-artifact 'capabilities:' but has a native implementation — per-artifact grants apply only to WASM tools and drivers, so this block is not enforced", a.Name))
		case (a.Runtime == RuntimeTool || a.Runtime == RuntimeDriver) && len(inert) > 0:
			add(WarnToolInert, p, fmt.Sprintf("artifact '%s' declares capabilities.%s, which per-artifact narrowing does not apply — only capabilities.network and capabilities.filesystem narrow a tool or driver",
				a.Name, strings.Join(inert, ", capabilities.")))
		}
	}
	if caps != nil && caps.Shell != nil {
		for i, g := range caps.Shell.InterpreterRuntime {
			dirs := make([]string, len(g.Dirs))
			for j, d := range g.Dirs {
				mode := "no-list"
				if d.ListDir {
					mode = "list_dir"
				}
				dirs[j] = fmt.Sprintf("%s (%s)", d.Path, mode)
			}
			add(WarnInterpreterRuntime, index("capabilities.shell.interpreter_runtime", i),
				fmt.Sprintf("capabilities.shell.interpreter_runtime gives '%s' host directories outside the workdir [%s]; the capsule now depends on this host's interpreter layout and version — prefer staged_runtime where available", g.Binary, strings.Join(dirs, ", ")))
		}
	}
	if !host.Linux && (len(shell) > 0 || len(caps.SpawnAllow()) > 0 || len(host.NativeTools) > 0) {
		add(WarnNoAggregateBound, "capabilities", "this capsule can start native subprocesses, but this platform has no cgroup v2, so nothing bounds the subprocess tree as a whole; per-process limits from capabilities.resources still apply")
	}
	if caps.WorkdirExec() {
		add(WarnWorkdirExec, "capabilities.filesystem.workdir_exec", "capabilities.filesystem.workdir_exec is true: files the capsule writes into its workdir can be executed whatever capabilities.shell.allow says, so this capsule's containment class is 'advisory' on every host")
	}
	if host.DeclaredFloor == "sealed" {
		for _, h := range host.UncoveredHelpers {
			add(WarnCompilerHelper, "capabilities.shell.allow", fmt.Sprintf("capabilities.shell.allow allows the compiler driver '%s', but its helper '%s' at %s cannot be executed inside the sealed root, so compiles will fail part-way; grant its directory with capabilities.shell.interpreter_runtime or staged_runtime for '%s'",
				h.Driver, h.Helper, h.Path, h.Driver))
		}
	}
	return out
}
