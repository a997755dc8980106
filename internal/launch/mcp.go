package launch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/remote/mcp"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/tools"
)

// newMCP describes the capsule's MCP servers, none started; nil when it
// declares none. A local server starts as the capsule's shell commands
// do: through the rlimit trampoline (refused without one) with the
// shell's containment plan (the cgroup scope, Landlock with the
// interpreter_runtime grants, seccomp, a network namespace reaching only
// network.allow), in the accessible workdir, with the subprocess
// environment (security.md §7: credentials stripped, synthetic HOME) and
// its own literal env. A remote server is reached from the host under
// network.allow with its headers, which no guest or subprocess sees.
// Every call has the capsule's deadline.
func newMCP(o *Options) (*mcp.Servers, error) {
	s := o.Staged
	m := s.Capsule.MCP
	if m == nil || len(m.Servers) == 0 {
		return nil, nil
	}
	g := s.Ceiling
	cfg := mcp.Config{Deadline: guestLimits(g.Limits).Deadline, Log: o.Log}
	for _, sv := range m.Servers {
		c := mcp.Server{Name: sv.Name}
		if !sv.Local() {
			r := &mcp.Remote{URL: sv.URL, Net: g.Network}
			for _, h := range sv.Headers {
				r.Headers = append(r.Headers, mcp.Header{Name: h.Name, Value: h.Value})
			}
			c.Remote = r
			cfg.Servers = append(cfg.Servers, c)
			continue
		}
		if o.Trampoline == "" {
			return nil, fmt.Errorf("preparing mcp server '%s': no rlimit trampoline configured, and a local MCP server never runs without capabilities.resources applied", sv.Name)
		}
		env, err := tools.SubprocessEnv{Getenv: o.Getenv, BaselineEnv: g.ShellBaselineEnv, StripEnv: g.ShellStripEnv,
			Workdir: s.AccessibleDir}.Build()
		if err != nil {
			return nil, fmt.Errorf("preparing mcp server '%s': %w", sv.Name, err)
		}
		for _, e := range sv.Env {
			env = putEnv(env, e.Name, e.Value)
		}
		path, err := tools.LookPath(sv.Command, envOf(env, "PATH"))
		if err != nil {
			return nil, fmt.Errorf("preparing mcp server '%s': command '%s': %w; install it or put its directory on PATH in mur's environment", sv.Name, sv.Command, err)
		}
		c.Local = &mcp.Local{Process: tools.Process{Path: path, Args: append([]string{sv.Command}, sv.Args...),
			Dir: s.AccessibleDir, Env: env,
			Sandbox: o.trampoline(sandbox.RlimitsFor(g.Resources), s.Subprocesses.Scope(pathEnv(o), nil).Plan(sandbox.HostNetNS()),
				s.Subprocesses.Egress(o.Log))}}
		cfg.Servers = append(cfg.Servers, c)
	}
	return mcp.New(cfg), nil
}

// putEnv is env (KEY=VALUE) with name set to value, replacing it where
// env has it.
func putEnv(env []string, name, value string) []string {
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	return append(env, name+"="+value)
}

// envOf is name's value in env.
func envOf(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}
