package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mur-go/mur/internal/policy"
	contain "github.com/mur-go/mur/internal/sandbox"
	runsession "github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

// explainScope is `mur run --explain-scope`: the grant and containment
// report, one JSON line with --json, and nothing run or created.
func (r *runner) explainScope(ctx context.Context, self string) error {
	g, err := runsession.ExplainScope(ctx, runsession.Options{ManifestPath: r.opts.manifest, NoEnvFile: r.opts.noEnvFile,
		Containment: r.opts.containment, NoCgroup: r.opts.noCgroup, Workdir: r.opts.workdir, CacheDir: os.Getenv(cacheDirEnv),
		Trampoline: self, Prober: contain.NewProber(self), Log: r.log})
	if err != nil {
		return err
	}
	if r.opts.json {
		b, err := json.Marshal(g)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(r.stdout, "%s\n", b)
		return err
	}
	printGrants(r.stdout, g)
	return nil
}

// printGrants renders the report for people.
func printGrants(w io.Writer, g stage.EffectiveGrants) {
	list := func(s []string) string {
		if len(s) == 0 {
			return "(none)"
		}
		return strings.Join(s, ", ")
	}
	met := "met"
	if !g.FloorMet && g.ShortfallReason != nil {
		met = "NOT met: " + *g.ShortfallReason
	}
	fmt.Fprintf(w, "containment: declared %s, achieved %s (floor %s)\n", g.DeclaredContainment, g.AchievedContainment, met)
	// The tier applied to this capsule, and the host's mechanism (§9.1:
	// a KernelSealed host applies KernelFull below a sealed floor).
	fmt.Fprintf(w, "enforcement: %s (host mechanism: %s)\n", g.Tier, g.EnforcementTier)
	sp := g.Subprocess
	if g.Tier == policy.TierKernelSealed.String() {
		fmt.Fprintln(w, "  root:      composed in a private mount namespace: system directories read-only, the workdir the only writable path, /tmp from its .mur-tmp, a private /dev, a synthetic /etc/passwd")
	}
	if sp.Landlock {
		fmt.Fprintf(w, "  landlock:  ABI %d, the workdir%s and the allowed binaries with their libraries\n", sp.LandlockABI, map[bool]string{true: " (executable)", false: " (not executable)"}[g.WorkdirExec])
	} else {
		fmt.Fprintln(w, "  landlock:  not applied: subprocess file access is not restricted")
	}
	fmt.Fprintf(w, "  seccomp:   %v\n", sp.Seccomp)
	fmt.Fprintf(w, "  network:   %s\n", sp.Egress)
	fmt.Fprintf(w, "  cgroup:    %s\n", sp.Cgroup)
	scope := "(whole workdir)"
	if g.FilesystemScope != nil {
		scope = *g.FilesystemScope
	}
	fmt.Fprintf(w, "filesystem scope: %s\n", scope)
	fmt.Fprintf(w, "network allow:    %s (unix sockets: %v)\n", list(g.NetworkAllow), g.UnixSockets)
	fmt.Fprintf(w, "shell allow:      %s\n", list(g.ShellAllow))
	fmt.Fprintf(w, "spawn allow:      %s\n", list(g.SpawnAllow))
	fmt.Fprintf(w, "env allow:        %s\n", list(g.EnvAllow))
	for _, ir := range g.InterpreterRuntimeGrants {
		var dirs []string
		for _, d := range ir.Dirs {
			dirs = append(dirs, d.Path)
		}
		fmt.Fprintf(w, "interpreter runtime: %s: %s\n", ir.Binary, strings.Join(dirs, ", "))
	}
	for _, sr := range g.StagedRuntimeGrants {
		fmt.Fprintf(w, "staged runtime: %s: %s (%s)\n", sr.Binary, sr.SourcePath, sr.Pin)
	}
	for _, m := range g.MCPServers {
		if m.Kind == "local" {
			fmt.Fprintf(w, "mcp server %s: local: %s (on stdio, contained like a shell command)\n", m.Name, strings.Join(append([]string{m.Command}, m.Args...), " "))
		} else {
			fmt.Fprintf(w, "mcp server %s: remote: %s (streamable HTTP from the host; headers: %s)\n", m.Name, m.URL, list(m.Headers))
		}
		if m.Refusal != "" {
			fmt.Fprintf(w, "  REFUSED: %s\n", m.Refusal)
		}
	}
	if wd := g.Workdir; wd != nil {
		fmt.Fprintf(w, "workdir:          %s\n", wd.Path)
		if len(wd.Holds) > 0 {
			fmt.Fprintf(w, "  holds what a later run trusts, hidden from WASM guests: %s\n", strings.Join(wd.Holds, ", "))
		}
		switch {
		case wd.Refusal != "":
			fmt.Fprintf(w, "  REFUSED: %s\n", wd.Refusal)
		case wd.RefusedIfNative:
			fmt.Fprintln(w, "  refused (E-CAP-002) if an artifact is a native tool: a subprocess's sandbox grants the whole workdir")
		}
	}
}
