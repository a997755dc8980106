package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/eval"
	"github.com/mur-go/mur/internal/serve/a2a"
	runsession "github.com/mur-go/mur/internal/session"
)

const evalRunLong = `Run an agent capsule once per case of a dataset and score every case.

DIR is the capsule's directory (the one holding murmur.yaml; default the
current directory). The dataset (--dataset FILE, default ./eval.jsonl in
the current directory) has one case per line:

  {"case_id": "greeting", "task_path": "tasks/greeting.md"}

task_path is read from the current directory. Each case runs in a fresh
session, as 'mur run --task <the file>' would run it, one after the
other, under <DIR>/workdir/. When the session ends, mur scores it with
the capsule's observability.eval.scorers from what its agent loop did
(the turns, tokens and tool calls it made and how it ended; nothing the
agent wrote in its workdir counts) and writes the verdicts to the
session's eval.jsonl, which 'mur eval show' and 'mur eval diff' read.
Each case's hooks get MURMUR_EVAL_CONFIG, MURMUR_CASE_ID and, with
observability.eval.dataset_id, MURMUR_DATASET_ID.

  observability:
    eval:
      dataset_id: smoke          # labels every dataset_run record
      scorers:
        - {type: exit_ok, name: success_check}
        - {type: max_turns, name: turn_limit, max: 5}
        - {type: tool_sequence, name: reads_first, expected: [read-file]}

Output: "Running N case(s) …", per case "  case: ID" and
"    result: pass|fail  session: ses_…", then a summary: "pass: P/N" and
a line per case with its scores and session directory. A case whose
task file is missing, empty or too large (over 1 MiB), or whose session
could not start, is "stage_failed" and the next case runs; why is on
stderr. The first run writes murmur.lock if there was none, as mur run
does.

Refused before any case runs (exit 1): no murmur.yaml, no dataset
("no dataset found", or "dataset not found at PATH" for --dataset), a
dataset line that does not decode (FILE:LINE, E-EVAL-001) or carries an
"expected" answer or a field mur-go does not know, an empty dataset, a
script capsule, a capsule with no scorer or with llm_judge (not
implemented), lifecycle queue + sleep (its session never ends), a
murmur.lock that does not parse. mur eval run exits 0 only when every
case passed, 1 otherwise. Ctrl-C (or SIGTERM) stops the case it
interrupts and runs no other: exit 130 (143), no summary.`

func newEvalRunCommand(a *app) *cobra.Command {
	var dataset string
	cmd := &cobra.Command{
		Use:   "run [DIR]",
		Short: "Run every case of a dataset against an agent capsule and score it",
		Long:  evalRunLong,
		Example: `  mur eval run
  mur eval run ./my-agent --dataset cases/smoke.jsonl
  mur eval run; mur eval show              # then the newest case's verdicts`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("dataset") && dataset == "" {
				return usagef(cmd, "--dataset needs a file")
			}
			noCgroup, err := noCgroupFromEnv(os.Getenv(noCgroupEnv))
			if err != nil {
				return &usageError{cmd, err}
			}
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("locating the mur binary to start native tools through: %w", err)
			}
			var dir string
			if len(args) == 1 {
				dir = args[0]
			}
			rep, err := eval.Run(cmd.Context(), eval.Options{
				CapsuleDir: dir,
				Dataset:    dataset,
				Session:    a.evalSession(self, noCgroup),
				OnStart:    func(n int) { fmt.Fprintf(a.stdout, "Running %d case(s) …\n", n) },
				OnCase:     func(c eval.Case) { fmt.Fprintf(a.stdout, "  case: %s\n", eval.Printable(c.ID)) },
				OnResult:   func(r eval.CaseResult) { a.printCaseResult(r) },
				OnNote:     func(s string) { fmt.Fprintln(a.stderr, "warning:", s) },
			})
			if err = asCancelled(cmd.Context(), err); err != nil {
				return err
			}
			printEvalSummary(a.stdout, rep)
			if n := rep.Passed(); n < len(rep.Cases) {
				return &reportedError{fmt.Errorf("%d of %d cases did not pass", len(rep.Cases)-n, len(rep.Cases))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dataset, "dataset", "", "the dataset, one JSON case per line (default ./eval.jsonl)")
	return cmd
}

// evalSession is what every case's session gets: mur run's settings with
// no flags, the capsule's output on stderr (stdout is the report).
func (a *app) evalSession(self string, noCgroup bool) runsession.Options {
	o := a.sessionOptions(self)
	o.NoCgroup = noCgroup
	o.Serve = runsession.ServeOptions{Token: os.Getenv(a2a.TokenEnv), RunningDir: runningDir()}
	return o
}

// printCaseResult is a case's lines: why it failed on stderr, its result
// on stdout (none for a case that never started, as in Murmur).
func (a *app) printCaseResult(r eval.CaseResult) {
	switch {
	case r.SessionID == "":
		fmt.Fprintf(a.stderr, "    stage failed: %s\n", indentedError(r.Err))
		return
	case r.Status == runsession.StatusTrapped:
		fmt.Fprintf(a.stderr, "    session trapped: %s\n", indentedError(r.Err))
	case r.Err != nil:
		fmt.Fprintf(a.stderr, "    session failed: %s\n", indentedError(r.Err))
	}
	if r.WriteErr != nil {
		fmt.Fprintf(a.stderr, "    warning: failed to write %s: %v\n", eval.EvalFile, r.WriteErr)
	}
	fmt.Fprintf(a.stdout, "    result: %s  session: %s\n", r.Result, r.SessionID)
}

// indentedError is err as mur prints errors, its hint lines indented
// under the case.
func indentedError(err error) string {
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(diag.Render(err), "\n", "\n    ")
}

// printEvalSummary is Murmur's summary: the pass count, then each case
// with its scores and session directory (the capsule's workdir for a
// case that never started).
func printEvalSummary(w io.Writer, rep eval.Report) {
	fmt.Fprintf(w, "\n── Summary ──────────────────────────────────────\npass: %d/%d\n\n", rep.Passed(), len(rep.Cases))
	for _, r := range rep.Cases {
		scores := make([]string, len(r.Scores))
		for i, s := range r.Scores {
			scores[i] = fmt.Sprintf("%s=%.2f", eval.Printable(s.Name), s.Score)
		}
		dir := r.SessionDir
		if dir == "" {
			dir = rep.Workdir
		}
		fmt.Fprintf(w, "  %-24s %s  %s  (%s)\n", eval.Printable(r.Case.ID), r.Result, strings.Join(scores, " "), dir)
	}
}
