package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

const sessionsPruneLong = `Remove session directories under <manifest dir>/workdir/. Say which
with --older-than (sessions created longer ago than that), --keep N (all
but the N newest), or both (sessions older than the age that are not
among the N newest); one of them is required, so a bare "prune" removes
nothing. --dry-run lists what would go without removing it.

The age is read from the session id, which records when the run started.
Do not prune a session whose run is still going; --keep 1 or more keeps
the newest.`

func newSessionsPruneCommand(a *app, opts *sessionsOptions) *cobra.Command {
	var (
		olderThan string
		keep      int
		dryRun    bool
	)
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove old session directories",
		Long:  sessionsPruneLong,
		Example: `  mur sessions prune --older-than 7d
  mur sessions prune --keep 5 --dry-run`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			if !f.Changed("older-than") && !f.Changed("keep") {
				return usagef(cmd, "say which sessions to remove: --older-than AGE, --keep N, or both")
			}
			var age time.Duration
			if f.Changed("older-than") {
				d, err := parseAge(olderThan)
				if err != nil {
					return usagef(cmd, "--older-than: %v", err)
				}
				age = d
			}
			if keep < 0 {
				return usagef(cmd, "--keep must be 0 or more, got %d", keep)
			}
			return a.prune(opts.manifest, age, keep, dryRun, time.Now())
		},
	}
	f := cmd.Flags()
	f.StringVar(&olderThan, "older-than", "", "remove sessions created longer ago than AGE: 90m, 36h, 7d")
	f.IntVar(&keep, "keep", 0, "keep the N newest sessions whatever their age")
	f.BoolVar(&dryRun, "dry-run", false, "list what would be removed and remove nothing")
	return cmd
}

// prune removes the sessions older than age (0: any age) beyond the keep
// newest, through an os.Root on the workdir so nothing outside it can be
// reached, whatever is swapped in meanwhile.
func (a *app) prune(manifestPath string, age time.Duration, keep int, dryRun bool, now time.Time) error {
	dir, sessions, err := findSessions(manifestPath)
	if err != nil {
		return err
	}
	candidates := sessions[:max(len(sessions)-keep, 0)]
	var doomed []session
	for _, s := range candidates {
		if age == 0 || now.Sub(s.created) > age {
			doomed = append(doomed, s)
		}
	}
	if len(doomed) == 0 {
		fmt.Fprintf(a.stdout, "Nothing to prune in %s (%d %s).\n", dir, len(sessions), plural(len(sessions), "session", "sessions"))
		return nil
	}
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	var freed int64
	for _, s := range doomed {
		if !dryRun {
			if err := root.RemoveAll(s.id); err != nil {
				return fmt.Errorf("removing session %s: %w", s.id, err)
			}
		}
		freed += s.size
		fmt.Fprintf(a.stdout, "%s %s (%s, %s)\n", verb, s.id, s.created.Local().Format(time.DateTime), humanBytes(s.size))
	}
	fmt.Fprintf(a.stdout, "%s %d %s, %s, from %s; %d left\n", strings.ToUpper(verb[:1])+verb[1:], len(doomed),
		plural(len(doomed), "session", "sessions"), humanBytes(freed), dir, len(sessions)-len(doomed))
	return nil
}

// parseAge reads a Go duration or a whole number of days ("7d").
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 || n > 100000 {
			return 0, fmt.Errorf("want a duration such as 90m, 36h or 7d, got %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a duration such as 90m, 36h or 7d, got %q", s)
	}
	return d, nil
}
