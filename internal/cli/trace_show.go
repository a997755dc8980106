package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/traceview"
)

const traceShowLong = `Summarise one session from its trace.jsonl: the capsule, model, exit
status and duration; turns and tokens (with the average per turn); tool
calls by turn with their duration, ✓ or ✗ and input (cut at 120
characters); redundant calls, a tool reading again a resource it read
before with nothing changing it in between (only calls that declare a
state_effect take part); skill and shell calls; compaction; reopens; and
one line per task when the session ran more than one.

Beyond Murmur, a call that a cancellation interrupted is marked
"cancelled", a native tool that failed shows its exit code or signal,
and the launch's security warnings are listed under the session.

Without SESSION, the newest session in the workdir.

` + sessionHelp

func newTraceShowCommand(a *app) *cobra.Command {
	var opts traceOptions
	cmd := &cobra.Command{
		Use:   "show [SESSION]",
		Short: "Summarise one session: turns, tokens, tool, skill and shell calls",
		Long:  traceShowLong,
		Example: `  mur trace show
  mur trace show 9f3a
  mur trace show --workdir ../other/workdir @2
  mur trace show workdir/ses_0199…/trace.jsonl`,
		Args: atMostOne("SESSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := opts.selectSession(args)
			if err != nil {
				return err
			}
			s, err := traceview.Summarize(ref)
			if err != nil {
				return err
			}
			return renderShow(a.stdout, s)
		},
	}
	addWorkdirFlag(cmd, &opts)
	return cmd
}

func renderShow(w io.Writer, s *traceview.Summary) error {
	l := &lines{w: w}
	l.printf("%s", heading("Session", 49))
	l.printf("session:    %s", s.Start.SessionID)
	l.printf("capsule:    %s v%s", s.Start.Capsule, s.Start.Version)
	l.printf("model:      %s", s.Start.Model)
	l.printf("status:     %s", s.End.ExitStatus)
	l.printf("duration:   %s", traceview.Duration(s.End.DurationMS))
	for _, warn := range s.Start.Warnings {
		l.printf("warning:    %s: %s", warn.Code, warn.Message)
	}
	l.printf("")

	l.printf("%s", heading("Turns", 49))
	l.printf("count:      %d  (max: %d)", s.End.Turns, s.Start.MaxTurns)
	l.printf("")

	l.printf("%s", heading("Tokens", 49))
	l.printf("input:      %s  (avg %s/turn)", traceview.Thousands(s.End.InputTokens), traceview.OptRound(s.AvgInputPerTurn()))
	l.printf("output:     %s  (avg %s/turn)", traceview.Thousands(s.End.OutputTokens), traceview.OptRound(s.AvgOutputPerTurn()))
	l.printf("total:      %s", traceview.Thousands(s.End.InputTokens+s.End.OutputTokens))
	l.printf("")

	showToolCalls(l, s)
	l.printf("")

	l.printf("%s", heading("Redundant calls", 49))
	l.printf("count:      %d", len(s.Redundant))
	for _, r := range s.Redundant {
		l.printf("  turn %d  %s  %s  (re-reads turn %d)", r.Turn, r.Tool, r.Resource, r.PriorTurn)
	}
	l.printf("")

	showSkillCalls(l, s)
	l.printf("")

	l.printf("%s", heading("Shell calls", 49))
	if s.End.ShellCalls == 0 {
		l.printf("count:      0")
	} else {
		l.printf("count:      %d", s.End.ShellCalls)
		l.printf("exit codes: %s", traceview.ExitCodes(s.ShellExits))
		l.printf("latency:    avg %s", traceview.OptDuration(s.AvgShellLatency()))
	}
	l.printf("")

	l.printf("%s", heading("Compaction", 49))
	if c := s.Compaction; c == nil {
		l.printf("fired:      no")
	} else {
		l.printf("fired:      yes  at turn %d  (%s → %s tokens)", c.Turn, traceview.Thousands(c.TokensBefore), traceview.Thousands(c.TokensAfter))
	}

	if len(s.Reopens) > 0 {
		l.printf("")
		l.printf("%s", heading("Reopens", 49))
		for _, r := range s.Reopens {
			l.printf("reopen %d  by %s  “%s”", r.Number, r.Hook, traceview.Prefix(r.Reason, 80))
		}
	}

	// Murmur's Tasks heading is one dash shorter and follows without a
	// blank line; kept so output compares equal.
	if len(s.Tasks) > 1 {
		l.printf("%s", heading("Tasks", 48))
		for i, t := range s.Tasks {
			reopens := ""
			if t.ReopenCount > 0 {
				reopens = fmt.Sprintf("  reopens: %d", t.ReopenCount)
			}
			l.printf("task %d  %s  turns: %d  in: %s  out: %s  %s  %s%s", i+1, traceview.Prefix(t.ID, 12), t.Turns,
				traceview.Thousands(t.InputTokens), traceview.Thousands(t.OutputTokens), t.ExitStatus, traceview.Duration(t.DurationMS), reopens)
		}
	}
	return l.err
}

func showToolCalls(l *lines, s *traceview.Summary) {
	l.printf("%s", heading("Tool calls", 49))
	if s.End.ToolCalls == 0 {
		l.printf("count:      0")
		return
	}
	rate, _ := s.ToolSuccessRate()
	l.printf("count:      %d  (%d ok, %d error)  success %.1f%%", s.End.ToolCalls, s.ToolOK, s.ToolError, rate)
	l.printf("latency:    avg %s", traceview.OptDuration(s.AvgToolLatency()))
	for _, t := range s.Turns() {
		if len(t.Calls) == 0 {
			l.printf("  turn %d  %s", t.Turn, t.Decision)
			continue
		}
		parts := make([]string, len(t.Calls))
		for i, c := range t.Calls {
			parts[i] = fmt.Sprintf("%s %s %s%s", c.Tool, traceview.Duration(c.DurationMS), mark(c.OK()), callNotes(c))
			if c.Input != "" {
				parts[i] += "  " + c.Input
			}
		}
		l.printf("  turn %d  %s", t.Turn, strings.Join(parts, "  "))
	}
}

// callNotes is what mur-go's trace adds to a call beyond Murmur's: that a
// cancellation interrupted it, and how a native tool that failed ended.
func callNotes(c traceview.ToolCall) string {
	var notes []string
	if c.Cancelled {
		notes = append(notes, "cancelled")
	}
	switch {
	case c.Signal != "":
		notes = append(notes, "killed by "+c.Signal)
	case c.HasExitCode && c.ExitCode != 0:
		notes = append(notes, fmt.Sprintf("exit %d", c.ExitCode))
	}
	if len(notes) == 0 {
		return ""
	}
	return " " + strings.Join(notes, ", ")
}

func showSkillCalls(l *lines, s *traceview.Summary) {
	l.printf("%s", heading("Skill calls", 49))
	n := s.SkillCallCount()
	if n == 0 {
		l.printf("count:      0")
		return
	}
	rate, _ := s.SkillSuccessRate()
	l.printf("count:      %d  (%d ok, %d error)  success %.1f%%", n, s.SkillOK, s.SkillError, rate)
	l.printf("latency:    avg %s", traceview.OptDuration(s.AvgSkillLatency()))
	for _, t := range s.SkillTurns() {
		parts := make([]string, len(t.Calls))
		for i, c := range t.Calls {
			parts[i] = fmt.Sprintf("%s %s %s", c.Skill, traceview.Duration(c.DurationMS), mark(c.OK()))
		}
		l.printf("  turn %d  %s", t.Turn, strings.Join(parts, "  "))
	}
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}
