package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/doctor"
	contain "github.com/mur-go/mur/internal/sandbox"
)

const doctorLong = `Check what this host can enforce on a capsule's subprocesses and whether
mur's own state is usable, without running anything. The one change it
makes: the cgroup scopes of sessions whose mur is gone (killed or crashed
before it could clean up) are removed, and whatever still ran in them is
killed; the report lists them.

The host part comes from live probes (a child of mur that really applies
Landlock, the seccomp filter, a user + network namespace and, for the
sealed class, a user + mount namespace it mounts in, never a kernel
version): the enforcement tier, the strongest containment class the
host provides (advisory, scoped or sealed) and, for each class above it,
why it is missing. Then the subprocess network namespace, the sealed
mount namespace, the cgroup scope, stale session scopes, the compile
cache, the global store and the Go toolchain.

Then the project (murmur.yaml here or above; outside one, E-IO-001 after
the host report): the capsule's effective grants and any refusal 'mur
run' would make (E-CAP-003/004/005), and each artifact murmur.yaml
declares looked for where 'mur run' looks (the project store, then the
global store, for this platform) and held to murmur.lock when there is
one: missing, no lock entry, another version pinned, or other bytes than
the lock pins (expected and actual sha256). A local source: entry passes.
A manifest or murmur.lock that cannot be read stops the checklist.

Exits 1 when a check fails, the capsule would be refused or an artifact
is not ready: "All checks passed." or "K checks passed, M errors found."
with a Fix line for each (M also counts the host's ✗ lines and a
refusal).`

func newDoctorCommand(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check what this host enforces and whether mur is ready to run capsules",
		Long:  doctorLong,
		Args:  exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("locating the mur binary to probe the host with: %w", err)
			}
			dir, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("reading the current directory: %w", err)
			}
			r := doctor.Run(cmd.Context(), doctor.Options{Prober: contain.NewProber(self), Dir: dir, CacheDir: os.Getenv(cacheDirEnv)})
			if asJSON {
				b, err := json.Marshal(r)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", b)
			} else {
				printDoctor(a, r)
			}
			switch {
			case r.ProjectErr != nil:
				return r.ProjectErr // on stderr, after the host report
			case !r.OK():
				return &reportedError{err: fmt.Errorf("mur doctor found problems")}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	return cmd
}

func printDoctor(a *app, r doctor.Report) {
	w := a.stdout
	fmt.Fprintf(w, "host: %s\n", r.Platform)
	fmt.Fprintf(w, "enforcement tier: %s (%s)\n", r.Tier, r.Mechanism)
	fmt.Fprintf(w, "strongest containment class: %s\n", r.Class)
	for _, g := range r.Missing {
		fmt.Fprintf(w, "  %s not available: %s\n", g.Class, g.Reason)
	}
	for _, c := range r.Checks {
		mark := "✓"
		switch {
		case !c.OK && c.Info:
			mark = "-"
		case !c.OK:
			mark = "✗"
		}
		fmt.Fprintf(w, "  %s  %s: %s\n", mark, c.Name, c.Detail)
	}
	if r.Capsule != nil {
		fmt.Fprintf(w, "\ncapsule: %s\n", r.Capsule.Manifest)
		printGrants(w, r.Capsule.Grants)
		for _, warn := range r.Capsule.Warnings {
			fmt.Fprintln(a.stderr, warn)
		}
	}
	if r.Project != nil {
		printProject(w, r)
	}
}

// printProject is the project checklist and the verdict: every declared
// artifact, then the counts and a Fix line for each problem (the host's
// and the refusal's included, after the artifacts').
func printProject(w io.Writer, r doctor.Report) {
	p := r.Project
	fmt.Fprintf(w, "\nChecking %s for %s...\n", p.Manifest, p.Platform)
	width := 0
	for _, c := range p.Artifacts {
		width = max(width, len(c.Name)+1+len(c.Version))
	}
	var fixes []string
	for _, c := range p.Artifacts {
		id := fmt.Sprintf("%-*s", width, c.Name+"@"+c.Version)
		switch {
		case c.OK && c.Local:
			fmt.Fprintf(w, "  ✓  %s   local source\n", id)
		case c.OK:
			fmt.Fprintf(w, "  ✓  %s   %s\n", id, p.Platform)
		default:
			fmt.Fprintf(w, "  ✗  %s   %s   — %s\n", id, p.Platform, c.Problem)
			if c.Expected != "" {
				fmt.Fprintf(w, "        expected sha256 (murmur.lock): %s\n", c.Expected)
				fmt.Fprintf(w, "        actual sha256 (on disk):       %s\n", c.Actual)
			}
			fixes = append(fixes, c.Fix)
		}
	}
	for _, c := range r.Checks {
		if !c.OK && !c.Info {
			fixes = append(fixes, c.Name+": see its ✗ line in the host report above")
		}
	}
	if g := r.Capsule; g != nil && !g.Grants.FloorMet && g.Grants.ShortfallReason != nil {
		fixes = append(fixes, "the capsule's containment: "+*g.Grants.ShortfallReason)
	}
	if g := r.Capsule; g != nil {
		for _, m := range g.Grants.MCPRefusals() {
			fixes = append(fixes, "the capsule's mcp servers: "+m)
		}
	}
	fmt.Fprintln(w)
	if len(fixes) == 0 {
		fmt.Fprintln(w, "All checks passed.")
		return
	}
	fmt.Fprintf(w, "%d %s passed, %d %s found.\n\n", p.Passed, plural(p.Passed, "check", "checks"), len(fixes), plural(len(fixes), "error", "errors"))
	for _, f := range fixes {
		fmt.Fprintf(w, "Fix: %s\n", f)
	}
}
