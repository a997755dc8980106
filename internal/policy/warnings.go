package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/format/manifest"
)

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
	// Tier is the applied tier (what subprocesses run under, what the
	// launch warnings follow); HostTier the host's own, which
	// --explain-scope and the trace name as the mechanism (§9.1).
	Tier     Tier
	HostTier Tier
	Linux    bool
	// DeclaredFloor is the resolved containment floor
	// (max of config, manifest and --containment); "" = advisory.
	DeclaredFloor string
	// NativeTools names declared tools whose own manifest says
	// implementation: native (known after registry resolution).
	NativeTools []string
	// UncoveredHelpers are compiler helpers the staging probe found with
	// no Execute-carrying grant under the sealed floor.
	UncoveredHelpers []CompilerHelper
	// CgroupScope is true when a cgroup scope (v2, or mur-go's v1
	// fallback) can bound the subprocess tree as a whole (§12.2);
	// without one (or with the operator's Support.CgroupOff) W-SEC-010
	// says so.
	CgroupScope bool
	// Support is what the live probes found; Tier follows from it.
	Support HostSupport
}

// netns is text, said only when host can give subprocesses a network
// namespace: W-SEC-005 never claims one the host does not make.
func netns(host Host, text string) string {
	if host.Support.NetNS {
		return text
	}
	return ""
}

// CompilerHelper is one W-SEC-012 finding.
type CompilerHelper struct {
	Driver, Helper, Path string
}

// SecurityWarnings returns the launch/staging W-SEC warnings (001–003,
// 005, 006, 008–012) for this capsule on host, in Murmur's order. W-SEC-004
// comes from the manifest's secret scan and W-SEC-007 from ArtifactNetwork.
func SecurityWarnings(c *manifest.Capsule, host Host) []manifest.Warning {
	var out []manifest.Warning
	add := func(code, path, msg string) {
		out = append(out, manifest.Warning{Code: code, Path: path, Msg: msg})
	}
	caps := c.Capabilities
	shell := caps.ShellAllow()
	if len(shell) > 0 {
		switch host.Tier {
		case TierEnvironmentOnly:
			where := "this platform has no kernel sandbox for subprocesses"
			if host.Linux {
				where = "this host enforces neither Landlock nor seccomp on subprocesses"
			}
			add(manifest.WarnShellEnvOnly, "capabilities.shell.allow", "capabilities.shell.allow is non-empty, but "+where+"; only the environment is controlled (synthetic HOME, credential variables stripped)")
			if slices.Contains(shell, "bash") && len(caps.NetworkAllow()) > 0 {
				add(manifest.WarnBashNetwork, "capabilities.shell.allow", "capabilities.shell.allow includes \"bash\" and capabilities.network.allow is non-empty, but nothing on this platform limits the network connections bash itself makes")
			}
		case TierSeccompOnly:
			add(manifest.WarnShellSeccompOnly, "capabilities.shell.allow", "capabilities.shell.allow is non-empty and this kernel has no Landlock (Linux < 5.13): subprocess file access outside the workdir is not restricted, only seccomp filters apply")
		case TierKernelFull:
			add(manifest.WarnShellKernel, "capabilities.shell.allow", "capabilities.shell.allow is non-empty; subprocesses run under Landlock and seccomp"+
				netns(host, " in a network namespace of their own")+": files outside the workdir are denied except the allowed binaries, their libraries and a fixed device set, unix sockets are refused unless declared"+
				netns(host, ", and only capabilities.network.allow hosts and ports are reachable"))
		case TierKernelSealed:
			add(manifest.WarnShellKernel, "capabilities.shell.allow", "capabilities.shell.allow is non-empty; subprocesses run sealed: a composed root in a private mount namespace (system directories read-only, the workdir the only writable path, /tmp inside it, a private /dev, a synthetic /etc/passwd), under Landlock and seccomp"+
				netns(host, ", in a network namespace of their own")+"; the host /proc is bound in when no private procfs can be mounted, and Landlock denies reading it")
		}
		if !host.Support.NetNS && host.Tier >= TierKernelFull {
			w := &out[len(out)-1]
			w.Msg += "; this host cannot give them a network namespace of their own (" + host.Support.noNetNSWhy() + "), so nothing would limit their network connections: mur run refuses such a capsule here (E-CAP-005)"
		}
	}
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		p := fmt.Sprintf("artifacts[%d].capabilities", i)
		inert := a.Capabilities.InertSubBlocks()
		switch {
		case a.Runtime == manifest.RuntimeHook && len(inert) > 0:
			add(manifest.WarnHookInert, p, fmt.Sprintf("hook '%s' declares capabilities.%s, which do not apply to a hook — only capabilities.network and capabilities.filesystem govern a hook",
				a.Name, strings.Join(inert, ", capabilities.")))
		case a.Runtime == manifest.RuntimeTool && a.Capabilities != nil && slices.Contains(host.NativeTools, a.Name):
			add(manifest.WarnToolInert, p, fmt.Sprintf("artifact '%s' declares per-artifact 'capabilities:' but has a native implementation — per-artifact grants apply only to WASM tools and drivers, so this block is not enforced", a.Name))
		case (a.Runtime == manifest.RuntimeTool || a.Runtime == manifest.RuntimeDriver) && len(inert) > 0:
			add(manifest.WarnToolInert, p, fmt.Sprintf("artifact '%s' declares capabilities.%s, which per-artifact narrowing does not apply — only capabilities.network and capabilities.filesystem narrow a tool or driver",
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
			add(manifest.WarnInterpreterRuntime, fmt.Sprintf("capabilities.shell.interpreter_runtime[%d]", i),
				fmt.Sprintf("capabilities.shell.interpreter_runtime gives '%s' host directories outside the workdir [%s]; the capsule now depends on this host's interpreter layout and version — prefer staged_runtime where available", g.Binary, strings.Join(dirs, ", ")))
		}
	}
	// Native tools never get a kernel sandbox (§9.4), so the gap to report
	// for them is a missing aggregate bound; on Linux launch then refuses
	// the capsule (E-RUN-012).
	if !host.CgroupScope && (len(shell) > 0 || len(caps.SpawnAllow()) > 0 || len(host.NativeTools) > 0) {
		why := "this platform has no cgroup v2"
		switch {
		case host.Linux && host.Support.CgroupOff:
			why = CgroupOffReason
		case host.Linux:
			why = "no cgroup scope can be built on this host (" + host.Support.CgroupErr + ")"
		}
		add(manifest.WarnNoAggregateBound, "capabilities", "this capsule can start native subprocesses, but "+why+", so nothing bounds the subprocess tree as a whole; per-process limits from capabilities.resources still apply")
	}
	if caps.WorkdirExec() {
		add(manifest.WarnWorkdirExec, "capabilities.filesystem.workdir_exec", "capabilities.filesystem.workdir_exec is true: files the capsule writes into its workdir can be executed whatever capabilities.shell.allow says, so this capsule's containment class is 'advisory' on every host")
	}
	if host.DeclaredFloor == "sealed" {
		for _, h := range host.UncoveredHelpers {
			add(manifest.WarnCompilerHelper, "capabilities.shell.allow", fmt.Sprintf("capabilities.shell.allow allows the compiler driver '%s', but its helper '%s' at %s cannot be executed inside the sealed root, so compiles will fail part-way; grant its directory with capabilities.shell.interpreter_runtime or staged_runtime for '%s'",
				h.Driver, h.Helper, h.Path, h.Driver))
		}
	}
	return out
}
