package cli

import (
	"encoding/json"
	"fmt"
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
cache, the global store and the Go toolchain. Inside a project
(murmur.yaml here or above), the capsule's effective grants and any
refusal 'mur run' would make (E-CAP-003/004/005).

Exits 1 when a check fails or the capsule would be refused.`

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
			if !r.OK() {
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
	if r.OK() {
		fmt.Fprintln(w, "\nAll checks passed.")
	} else {
		fmt.Fprintln(w, "\nProblems found: fix the ✗ lines (and the capsule's refusal, if any) before 'mur run'.")
	}
}
