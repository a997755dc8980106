package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/eval"
)

const evalShowLong = `Summarise one eval.jsonl: each scorer's pass count and rate, the overall
result (the dataset_run's, else pass when every score passed), the case
and dataset, the dataset_run's scores and up to five failing scores, by
scorer then turn.

SESSION is a session id, or its last characters (any case), of a session
in the workdir (./workdir, or --workdir DIR); nothing means the newest
session there. A SESSION with a / in it, or ending in .jsonl, is the
path of an eval file.

With --json, one JSON object:
  {"dataset_run": {…} or null, "overall": "pass",
   "scorers": {"turn_limit": {"fail": 0, "pass": 1, "pass_rate": 1.0, "total": 1}}}

A file that is missing exits 1 (E-IO-001), a line that does not decode
exits 1 with its FILE:LINE (E-EVAL-001), a session that is not there or
is ambiguous exits 1 (E-EVAL-002). An empty file, or one without scores,
is shown as "(no scored events)".`

func newEvalShowCommand(a *app) *cobra.Command {
	var workdir string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show [SESSION]",
		Short: "Summarise one session's eval.jsonl",
		Long:  evalShowLong,
		Example: `  mur eval show
  mur eval show 3f9a
  mur eval show workdir/ses_0197…/eval.jsonl --json | jq .scorers`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var selector string
			if len(args) == 1 {
				selector = args[0]
			}
			src, err := eval.Locate(evalWorkdir(workdir), selector)
			if err != nil {
				return err
			}
			f, err := src.Read()
			if err != nil {
				return err
			}
			if asJSON {
				b, err := eval.MarshalIndent(eval.Summarize(f))
				if err != nil {
					return err
				}
				_, err = a.stdout.Write(b)
				return err
			}
			printEvalShow(a.stdout, src.Path, f)
			return nil
		},
	}
	cmd.Flags().StringVar(&workdir, "workdir", "", "the directory holding the session directories (default ./workdir)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary")
	return cmd
}

// The section rules of Murmur's eval output.
const (
	ruleScorers = "── Scorers ──────────────────────────────────────"
	ruleOverall = "── Overall ──────────────────────────────────────"
	ruleSummary = "── Score summary ────────────────────────────────"
	ruleWorst   = "── Worst events ─────────────────────────────────"
)

// printEvalShow is Murmur's human summary of f, every text from the file
// made printable.
func printEvalShow(w io.Writer, path string, f *eval.File) {
	p := eval.Printable
	fmt.Fprintf(w, "── Eval: %s ─────────────────────────────────────\n", p(path))
	if len(f.Events) == 0 && f.Run == nil {
		fmt.Fprintln(w, "  (no scored events)")
		return
	}
	fmt.Fprintf(w, "\n%s\n", ruleScorers)
	for _, r := range f.Rates() {
		fmt.Fprintf(w, "  %-24s %d/%d pass  (%.1f%%)\n", p(r.Scorer), r.Pass, r.Total(), 100*r.PassRate())
	}
	fmt.Fprintf(w, "\n%s\n", ruleOverall)
	fmt.Fprintf(w, "  result:  %s\n", p(f.Overall()))
	if run := f.Run; run != nil {
		if run.CaseID != nil {
			fmt.Fprintf(w, "  case:    %s\n", p(*run.CaseID))
		}
		if run.DatasetID != nil {
			fmt.Fprintf(w, "  dataset: %s\n", p(*run.DatasetID))
		}
		if len(run.Scores) > 0 {
			fmt.Fprintf(w, "\n%s\n", ruleSummary)
			for _, s := range run.SortedScores() {
				fmt.Fprintf(w, "  %-24s %.4f\n", p(s.Name), s.Score)
			}
		}
	}
	if len(f.Events) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", ruleWorst)
	worst := f.Worst(5)
	for _, e := range worst {
		score := 0.0
		if e.Score != nil {
			score = *e.Score
		}
		fmt.Fprintf(w, "  turn %3d  %-12s  %-24s %s  score=%.2f\n", e.Turn, p(e.EventType), p(e.Scorer), p(e.Result), score)
	}
	if len(worst) == 0 {
		fmt.Fprintln(w, "  (no failing events)")
	}
}

// evalWorkdir is the --workdir of show and diff, ./workdir by default.
func evalWorkdir(dir string) string {
	if dir != "" {
		return dir
	}
	if wd, err := os.Getwd(); err == nil {
		return filepath.Join(wd, "workdir")
	}
	return "workdir"
}
