package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/eval"
)

const evalDiffLong = `Compare two eval files scorer by scorer: each scorer's pass rate in run A
and run B, and the change in percentage points ("=" under 0.1 pp, "(A
only)" or "(B only)" for a scorer one run lacks), then both runs'
overall results.

A and B are found as 'mur eval show' finds SESSION: a session id or its
last characters in the workdir (./workdir, or --workdir DIR), or a path
with a / or ending in .jsonl. Either missing, or a line that does not
decode, exits 1.`

func newEvalDiffCommand(a *app) *cobra.Command {
	var workdir string
	cmd := &cobra.Command{
		Use:   "diff A B",
		Short: "Compare two eval files scorer by scorer",
		Long:  evalDiffLong,
		Example: `  mur eval diff 3f9a 81c0
  mur eval diff baseline/eval.jsonl workdir/ses_0197…/eval.jsonl`,
		Args: exactArgs("A", "B"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := evalWorkdir(workdir)
			var files [2]*eval.File
			for i, sel := range args {
				src, err := eval.Locate(dir, sel)
				if err != nil {
					return err
				}
				if files[i], err = src.Read(); err != nil {
					return err
				}
			}
			printEvalDiff(a.stdout, files[0], files[1])
			return nil
		},
	}
	cmd.Flags().StringVar(&workdir, "workdir", "", "the directory holding the session directories (default ./workdir)")
	return cmd
}

// printEvalDiff is Murmur's comparison table.
func printEvalDiff(w io.Writer, a, b *eval.File) {
	fmt.Fprintf(w, "%-24s %-14s %-14s Delta\n", "Scorer", "Run A", "Run B")
	fmt.Fprintf(w, "%s %s %s %s\n", strings.Repeat("─", 24), strings.Repeat("─", 14), strings.Repeat("─", 14), strings.Repeat("─", 26))
	for _, row := range eval.Diff(a, b) {
		fmt.Fprintf(w, "%-24s %-14s %-14s %s\n", eval.Printable(row.Scorer), diffRate(row.A), diffRate(row.B), diffDelta(row))
	}
	fmt.Fprintf(w, "\n%-24s %-14s %-14s\n", "overall", eval.Printable(a.Overall()), eval.Printable(b.Overall()))
}

func diffRate(r *eval.Rate) string {
	if r == nil || r.Total() == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*r.PassRate())
}

func diffDelta(row eval.DiffRow) string {
	switch d, pp := row.Delta(); d {
	case eval.Equal:
		return "="
	case eval.BBetter:
		return fmt.Sprintf("%+.1fpp (B better)", pp)
	case eval.ABetter:
		return fmt.Sprintf("%+.1fpp (A better)", pp)
	case eval.AOnly:
		return "(A only)"
	}
	return "(B only)"
}
