package cli

import "github.com/spf13/cobra"

const traceLong = `Read what an agent session did, from the trace.jsonl "mur run" writes in
its session directory: a summary of one session (show), its turns one by
one (steps), two sessions side by side (diff), or statistics over many
(report); and from its transcript.jsonl, what the model was sent and said
and what every tool returned (transcript), or all of it on one page with
a timeline of each task (html).

` + sessionHelp + `

A trace is read leniently: events of a type mur does not know are
skipped, fields it does not use ignored; a line that is not JSON, or a
known event missing a field, is named as FILE:LINE (E-TRC-001).`

func newTraceCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Summarise, step through, compare and report on agent sessions' traces",
		Long:  traceLong,
		Example: `  mur trace show                  the newest session, summed up
  mur trace steps --verbose 9f3a  what each turn of session …9f3a did
  mur trace diff                  the two newest sessions, @2 then @1
  mur trace report --since 1d     statistics over the last day's sessions
  mur trace transcript            what the newest session's model and tools said
  mur trace html -o run.html      a page of it, with each task's timeline`,
		Args: cobra.ArbitraryArgs,
		RunE: runGroup,
	}
	cmd.AddCommand(newTraceShowCommand(a), newTraceStepsCommand(a), newTraceDiffCommand(a), newTraceReportCommand(a),
		newTraceTranscriptCommand(a), newTraceHTMLCommand(a))
	return cmd
}
