package cli

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/traceview"
)

const traceStepsLong = `Show a session turn by turn: for each inference, the turn, the model's
decision (tool_call, end_turn, …), the tool it called (— when none) and
how long the turn's first tool or skill call took (— when none). With
--verbose, the first string of the turn's tool input too, cut at 60
characters. A trace cut short (a run still going, or killed) is shown as
far as it goes. Without SESSION, the newest session in the workdir.

` + sessionHelp

func newTraceStepsCommand(a *app) *cobra.Command {
	var opts traceOptions
	var verbose bool
	cmd := &cobra.Command{
		Use:   "steps [SESSION]",
		Short: "Show what the agent did in a session, turn by turn",
		Long:  traceStepsLong,
		Example: `  mur trace steps
  mur trace steps --verbose 9f3a`,
		Args: atMostOne("SESSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := opts.selectSession(args)
			if err != nil {
				return err
			}
			t, err := traceview.Load(ref)
			if err != nil {
				return err
			}
			steps, err := t.Steps()
			if err != nil {
				return err
			}
			return renderSteps(a.stdout, steps, verbose)
		},
	}
	addWorkdirFlag(cmd, &opts)
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also show the first string of each turn's tool input")
	return cmd
}

func renderSteps(w io.Writer, s *traceview.Steps, verbose bool) error {
	l := &lines{w: w}
	n := len(s.Steps)
	l.printf("Session %s  (%d turn%s)", s.SessionID, n, plural(n, "", "s"))
	l.printf("")
	width := 12
	for _, st := range s.Steps {
		width = max(width, utf8.RuneCountInString(st.Tool))
	}
	for _, st := range s.Steps {
		tool := fmt.Sprintf("%-*s", width, st.Tool)
		if verbose && st.Input != "" {
			l.printf("  %-3d%-13s%s%-5s   %s", st.Turn, st.Decision, tool, st.Duration, st.Input)
		} else {
			l.printf("  %-3d%-13s%s%s", st.Turn, st.Decision, tool, st.Duration)
		}
	}
	l.printf("")
	return l.err
}
