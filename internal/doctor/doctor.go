// Package doctor says what this host can enforce on a capsule's
// subprocesses and whether mur's own state is usable: the containment
// tiers with the reason for each one missing, the cgroup scope, the cache
// and stores, the toolchain; and for the project, the capsule's grants,
// the refusals `mur run` would make and Murmur's checklist of its
// declared artifacts against the stores and murmur.lock. It also removes
// the session scopes a mur that is gone left behind, killing what still
// ran in them. `mur doctor` renders it; a server can call it the same way.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/store/registry"
)

// Options say where to look.
type Options struct {
	// Prober probes the host (through the mur binary).
	Prober *sandbox.Prober
	// Dir is where to look for murmur.yaml, walking up; "" skips the
	// project (none found there is Report.ProjectErr, E-IO-001).
	Dir string
	// CacheDir is the compile cache (MUR_CACHE_DIR; "" = the user cache).
	CacheDir string
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
}

// Report is the whole diagnosis.
type Report struct {
	Platform string             `json:"platform"`
	Host     policy.HostSupport `json:"host"`
	// Tier and Mechanism are what subprocesses get here; Class the
	// strongest containment class the host provides.
	Tier      string `json:"tier"`
	Mechanism string `json:"mechanism"`
	Class     string `json:"class"`
	// Missing has the reason for each class above Class.
	Missing []Gap    `json:"missing"`
	Checks  []Check  `json:"checks"`
	Capsule *Capsule `json:"capsule,omitempty"`
	// Project is the project's checklist (Options.Dir inside a project);
	// ProjectErr what stopped it (no project, a manifest or murmur.lock
	// that does not read), ProjectError that error as the CLI prints it.
	Project      *Project `json:"project,omitempty"`
	ProjectErr   error    `json:"-"`
	ProjectError string   `json:"project_error,omitempty"`
}

// Gap is one class this host does not provide, and why.
type Gap struct {
	Class  string `json:"class"`
	Reason string `json:"reason"`
}

// Check is one pass/fail item; Info items never fail the report. A
// Detail that is a coded error is in the form the CLI prints it
// (diag.Render): the report is what the user reads.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Info   bool   `json:"info,omitempty"`
	Detail string `json:"detail"`
}

// Capsule is the project's capsule as `mur run` would decide on it.
type Capsule struct {
	Manifest string                `json:"manifest"`
	Grants   stage.EffectiveGrants `json:"grants"`
	Warnings []string              `json:"warnings"`
}

// OK reports whether nothing failed: every non-info check passed, the
// project (if asked for) was found and every declared artifact passed,
// and the capsule would not be refused (its containment floor, its MCP
// servers' reach).
func (r Report) OK() bool {
	return r.HostProblems() == 0 && r.ProjectErr == nil && (r.Project == nil || r.Project.Failed == 0) &&
		(r.Capsule == nil || r.Capsule.Grants.FloorMet && len(r.Capsule.Grants.MCPRefusals()) == 0)
}

// HostProblems counts the failed host checks (info items never fail).
func (r Report) HostProblems() int {
	n := 0
	for _, c := range r.Checks {
		if !c.OK && !c.Info {
			n++
		}
	}
	return n
}

// Run diagnoses the host and, with a Dir, the project there.
// The one thing it changes is what no live mur owns: the session scopes
// of a mur that is gone (killed, crashed), whose processes it kills and
// whose cgroups it removes (sandbox.SweepStaleScopes). It creates
// nothing.
func Run(ctx context.Context, o Options) Report {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	s := o.Prober.Probe(ctx)
	tier := s.Tier()
	class := policy.Achieved(policy.NewHost(s, policy.Sealed, nil), false)
	r := Report{Platform: runtime.GOOS + "/" + runtime.GOARCH, Host: s, Tier: tier.String(), Mechanism: tier.Mechanism(), Class: class.String()}
	gaps := s.Gaps()
	for _, c := range []policy.Class{policy.Scoped, policy.Sealed} {
		if c > class {
			r.Missing = append(r.Missing, Gap{Class: c.String(), Reason: gaps[c]})
		}
	}
	r.Checks = append(r.Checks, netnsCheck(s), sealedCheck(s), cgroupCheck(s), staleScopeCheck(), cacheCheck(o.CacheDir), storeCheck(getenv), toolchainCheck())
	if o.Dir != "" {
		f, warns, p, err := project(ctx, o.Dir, getenv)
		if err == nil {
			r.Capsule, err = capsule(f, warns, s)
		}
		if err != nil {
			r.ProjectErr, r.ProjectError = err, diag.Render(err)
		} else {
			r.Project = p
		}
	}
	return r
}

func netnsCheck(s policy.HostSupport) Check {
	c := Check{Name: "subprocess network namespace", OK: s.NetNS, Detail: "a user + network namespace with only loopback is created for each subprocess"}
	if !s.NetNS {
		c.Detail = fmt.Sprintf("cannot create one (%s: %s); capsules with capabilities.shell.allow or spawn.allow are refused with E-CAP-005", s.NetNSReason, s.NetNSErr)
		c.Info = !s.Linux
	}
	return c
}

// sealedCheck reports the sealed probe: a child really made a user and
// mount namespace and mounted in it, or the blocker that stopped it.
func sealedCheck(s policy.HostSupport) Check {
	c := Check{Name: "sealed mount namespace", OK: s.Tier() == policy.TierKernelSealed, Info: true,
		Detail: "each sealed subprocess gets a composed root (read-only system directories, the workdir, a private /dev and /tmp, a synthetic /etc/passwd) in a mount namespace of its own"}
	if !c.OK {
		c.Detail = "not available: " + s.Gaps()[policy.Sealed] + "; capsules declaring containment: sealed are refused with E-CAP-003"
	}
	return c
}

// cgroupCheck says how a session's cgroup scope (security.md §12.2) is
// built here, or why none can be: capsules that can spawn a native
// subprocess are then refused with E-RUN-012 on Linux.
func cgroupCheck(s policy.HostSupport) Check {
	c := Check{Name: "cgroup scope", OK: s.Cgroup != ""}
	switch {
	case s.Cgroup == sandbox.CgroupSystemd:
		c.Detail = "systemd: each mur asks the systemd user manager on the session bus for a transient scope murmur-<pid>-<n>.scope with Delegate=yes, and each session's subprocesses share a scope there with the memory, pids and cpu ceilings (" + s.CgroupNote + ")"
	case s.Cgroup == sandbox.CgroupV2:
		c.Detail = "cgroup2: each session's subprocesses share a scope with memory.max, pids.max, cpu.max (io.max best effort) in a delegated cgroup v2 subtree"
	case s.Cgroup == sandbox.CgroupV1:
		c.Detail = "cgroup1: each session's subprocesses share a scope with memory.limit_in_bytes, pids.max and cpu.cfs_quota_us in the cgroup v1 hierarchies (" + s.CgroupNote + ")"
	case !s.Linux:
		c.Info = true
		c.Detail = "this platform has no cgroups: the subprocess tree has per-process rlimits but no aggregate ceiling (W-SEC-010)"
	default:
		c.Detail = "none (" + s.CgroupErr + "); capsules with capabilities.shell.allow, spawn.allow, native tools or an inference.transport: process agent CLI are refused with E-RUN-012 unless the operator runs them without the scope (mur run --no-cgroup, MUR_NO_CGROUP=1)"
	}
	return c
}

// staleScopeCheck removes the session scopes whose mur and reaper are
// both gone and says what it found: processes a killed mur's session left
// running are killed here, at the latest. A scope that could not be
// removed fails the check.
func staleScopeCheck() Check {
	c := Check{Name: "stale cgroup scopes", OK: true, Info: true, Detail: "none: no session scope outlived its mur"}
	stale, err := sandbox.SweepStaleScopes()
	if err != nil {
		c.OK, c.Info, c.Detail = false, false, "could not look for them: "+err.Error()
		return c
	}
	if len(stale) == 0 {
		return c
	}
	var removed, stayed []string
	for _, s := range stale {
		if s.Err != nil {
			stayed = append(stayed, s.String())
		} else {
			removed = append(removed, s.String())
		}
	}
	c.Detail = ""
	if len(removed) > 0 {
		c.Detail = "removed what a mur that is gone left behind: " + strings.Join(removed, "; ")
	}
	if len(stayed) > 0 {
		c.OK, c.Info = false, false
		c.Detail = strings.TrimPrefix(c.Detail+"; could not remove (kill their processes and rmdir the directories as their owner or root): "+strings.Join(stayed, "; "), "; ")
	}
	return c
}

func cacheCheck(dir string) Check {
	c := Check{Name: "compile cache"}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			c.Detail = "no user cache directory: " + err.Error() + "; set MUR_CACHE_DIR"
			return c
		}
		dir = filepath.Join(base, "mur")
	}
	c.OK, c.Detail = writable(dir)
	c.Detail = dir + ": " + c.Detail
	return c
}

func storeCheck(getenv func(string) string) Check {
	c := Check{Name: "global store"}
	dir, err := registry.GlobalRoot(getenv)
	if err != nil {
		c.Detail = diag.Render(err)
		return c
	}
	c.OK, c.Detail = writable(dir)
	c.Detail = dir + ": " + c.Detail
	return c
}

// writable says whether dir (or, if it does not exist yet, its nearest
// existing ancestor, where mur would create it) is a writable directory.
func writable(dir string) (bool, string) {
	for d, missing := dir, false; ; d, missing = filepath.Dir(d), true {
		fi, err := os.Stat(d)
		if errors.Is(err, fs.ErrNotExist) && d != filepath.Dir(d) {
			continue
		}
		if err != nil {
			return false, err.Error()
		}
		if !fi.IsDir() {
			return false, d + " is not a directory"
		}
		if accessW(d) != nil {
			return false, d + " is not writable"
		}
		if missing {
			return true, "not created yet (" + d + " is writable)"
		}
		return true, "writable"
	}
}

func toolchainCheck() Check {
	c := Check{Name: "go toolchain", Info: true, Detail: "not found on PATH (needed only to build native tools from Go sources)"}
	if p, err := exec.LookPath("go"); err == nil {
		c.OK, c.Detail = true, p
	}
	return c
}

// capsule is the project's capsule as `mur run` would decide on it: its
// grants under this host's containment, and its warnings.
func capsule(f *manifest.File, warns []manifest.Warning, s policy.HostSupport) (*Capsule, error) {
	g, err := stage.Explain(f.Capsule, "", s)
	if err != nil {
		return nil, err
	}
	c := &Capsule{Manifest: f.Path, Grants: g, Warnings: []string{}}
	for _, w := range warns {
		c.Warnings = append(c.Warnings, w.String())
	}
	for _, w := range policy.SecurityWarnings(f.Capsule, policy.NewHost(s, policy.Advisory, nil)) {
		c.Warnings = append(c.Warnings, policy.LaunchLine(policy.StderrPrefix, w))
	}
	return c, nil
}
