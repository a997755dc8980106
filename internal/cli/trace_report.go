package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/traceview"
)

const traceReportLong = `Sum up many sessions: one block per session (its duration, turns, tool
and shell calls, redundant calls and average latencies), then the mean,
standard deviation, minimum and maximum of each metric over them, the
share of each exit status, and, when sessions ran more than one task,
the same per task.

Without SESSION arguments every session in the workdir counts; --last N
keeps the N newest, --since keeps those started within a time (30m, 2h,
1d). With SESSION arguments, only those count (and neither flag may be
given). A trace that is empty or cut short (a run still going) is
skipped with a note on stderr.

` + sessionHelp

func newTraceReportCommand(a *app) *cobra.Command {
	var opts traceOptions
	var last int
	var since string
	cmd := &cobra.Command{
		Use:   "report [SESSION...]",
		Short: "Aggregate statistics over many sessions",
		Long:  traceReportLong,
		Example: `  mur trace report
  mur trace report --last 10
  mur trace report --since 2h
  mur trace report 9f3a 0c71 @1`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			lastSet, sinceSet := cmd.Flags().Changed("last"), cmd.Flags().Changed("since")
			if len(args) > 0 && (lastSet || sinceSet) {
				flag := "--last"
				if sinceSet {
					flag = "--since"
				}
				return &usageError{cmd, diag.New(traceview.CodeSelect, "%s cannot be combined with explicit session arguments", flag)}
			}
			if lastSet && last < 1 {
				return &usageError{cmd, diag.New(traceview.CodeSelect, "--last must be at least 1")}
			}
			var refs []traceview.Ref
			if len(args) == 0 {
				f := traceview.Filter{Last: last, HasSince: sinceSet, SinceText: since, Now: time.Now()}
				if sinceSet {
					ms, err := traceview.ParseSince(since)
					if err != nil {
						return &usageError{cmd, err}
					}
					f.Since = ms
				}
				var err error
				if refs, err = traceview.Recent(opts.dir(), f); err != nil {
					return err
				}
			}
			for _, sel := range args {
				ref, err := traceview.Select(opts.dir(), sel)
				if err != nil {
					return err
				}
				refs = append(refs, ref)
			}
			r, err := traceview.NewReport(refs)
			if err != nil {
				return err
			}
			if r.Skipped > 0 {
				fmt.Fprintf(a.stderr, "note: skipped %d incomplete session(s)\n", r.Skipped)
			}
			return renderReport(a.stdout, opts.dir(), r)
		},
	}
	addWorkdirFlag(cmd, &opts)
	cmd.Flags().IntVar(&last, "last", 0, "only the N newest sessions")
	cmd.Flags().StringVar(&since, "since", "", "only sessions started within this time: <N>m, <N>h or <N>d")
	return cmd
}

func renderReport(w io.Writer, workdir string, r *traceview.Report) error {
	l := &lines{w: w}
	for _, s := range r.Sessions {
		sessionBlock(l, s)
	}
	l.printf("Sessions: %d  (%s)", len(r.Sessions), workdir)
	l.printf("")
	statTable(l, r.Stats)
	l.printf("")
	l.printf("Exit status:")
	for _, e := range r.Exits {
		l.printf("  %-24s %d  (%.1f%%)", e.Status, e.Count, e.Percent)
	}
	if r.TaskStats != nil {
		l.printf("")
		l.printf("%s", heading("Per-task averages (multi-task sessions only)", 62))
		statTable(l, r.TaskStats)
		l.printf("Tasks: %d", r.Tasks)
	}
	return l.err
}

func sessionBlock(l *lines, s *traceview.Summary) {
	l.printf("Session %s  %s  %d turn%s", traceview.ShortSession(s.Start.SessionID), traceview.Duration(s.End.DurationMS),
		s.End.Turns, plural(int(s.End.Turns), "", "s"))
	l.printf("")
	if s.ToolError > 0 {
		l.printf("  %-14s %d  (%d ok, %d error)", "Tool calls:", s.End.ToolCalls, s.ToolOK, s.ToolError)
	} else {
		l.printf("  %-14s %d", "Tool calls:", s.End.ToolCalls)
	}
	if s.End.ShellCalls > 0 {
		l.printf("  %-14s %d  exit codes: %s", "Shell calls:", s.End.ShellCalls, traceview.ExitCodes(s.ShellExits))
	}
	if len(s.Redundant) > 0 {
		l.printf("  Redundant calls: %d", len(s.Redundant))
	}
	if tool, ok := s.AvgToolLatency(); ok {
		shell := ""
		if v, ok := s.AvgShellLatency(); ok {
			shell = "  shell " + traceview.Duration(traceview.Whole(v))
		}
		l.printf("  %-14s tool %s%s", "Avg latency:", traceview.Duration(traceview.Whole(tool)), shell)
	}
	l.printf("")
}

func statTable(l *lines, rows []traceview.StatRow) {
	l.printf("%-22s %-14s %-14s %-14s Max", "Metric", "Mean", "StdDev", "Min")
	l.printf("%s %s %s %s %s", rule(22), rule(14), rule(14), rule(14), rule(14))
	for _, r := range rows {
		l.printf("%-22s %-14s %-14s %-14s %s", r.Metric, r.Mean, r.StdDev, r.Min, r.Max)
	}
}
