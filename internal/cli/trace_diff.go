package cli

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/traceview"
)

const traceDiffLong = `Compare two sessions metric by metric: turns, duration, tokens (in all
and per turn), tool calls and their success rate and latency, skill and
shell calls, compaction and exit status. Delta is Run B minus Run A, and
says which run did better: fewer turns, tokens and calls and less time
are better, a higher tool success rate is.

BEFORE is Run A and AFTER Run B; with neither, they are @2 and @1, the
two newest sessions: "did my last change help?". Each is a SESSION:

` + sessionHelp

func newTraceDiffCommand(a *app) *cobra.Command {
	var opts traceOptions
	cmd := &cobra.Command{
		Use:   "diff [BEFORE AFTER]",
		Short: "Compare two sessions side by side, metric by metric",
		Long:  traceDiffLong,
		Example: `  mur trace diff               the newest session against the one before it
  mur trace diff @3 @1
  mur trace diff 9f3a 0c71
  mur trace diff old/trace.jsonl new/trace.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if n := len(args); n != 0 && n != 2 {
				return &usageError{cmd, diag.New(traceview.CodeSelect,
					"mur trace diff expects 0 or 2 arguments, got %d. Usage: mur trace diff [<before> <after>]", n)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"@2", "@1"}
			}
			before, errB := opts.selectLabelled(args[0], "before")
			after, errA := opts.selectLabelled(args[1], "after")
			switch {
			case errB != nil && errA != nil:
				return diag.Wrap(traceview.CodeSelect, errors.Join(errB, errA), "%s\n%s", errB, errA)
			case errB != nil:
				return errB
			case errA != nil:
				return errA
			}
			a1, err := traceview.Summarize(before)
			if err != nil {
				return err
			}
			b1, err := traceview.Summarize(after)
			if err != nil {
				return err
			}
			return renderDiff(a.stdout, traceview.Diff(a1, b1))
		},
	}
	addWorkdirFlag(cmd, &opts)
	return cmd
}

// selectLabelled is Select with the argument's role before the message
// of its failure.
func (o *traceOptions) selectLabelled(sel, label string) (traceview.Ref, error) {
	ref, err := traceview.Select(o.dir(), sel)
	var d *diag.Error
	if errors.As(err, &d) {
		return ref, diag.Wrap(d.Code, err, "%s: %s", label, d.Msg).WithHint(d.Hint)
	}
	return ref, err
}

func renderDiff(w io.Writer, rows []traceview.DiffRow) error {
	l := &lines{w: w}
	l.printf("%-22s %-16s %-16s Delta", "Metric", "Run A", "Run B")
	l.printf("%s %s %s %s", rule(22), rule(16), rule(16), rule(26))
	for _, r := range rows {
		l.printf("%-22s %-16s %-16s %s", r.Metric, r.A, r.B, r.Delta)
	}
	return l.err
}
