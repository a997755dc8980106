package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/traceview"
)

// sessionHelp is how every trace command names a session.
const sessionHelp = `SESSION is one of:
  ses_<32 hex digits>  a session id
  @N                   the N-th newest session (@1 is the newest)
  9f3a                 the end of a session id, in any case; it must match
                       exactly one session
  path/trace.jsonl     a trace file: anything holding a "/" or ending in
                       .jsonl is a path

Sessions are looked for in --workdir, by default ./workdir: the directory
"mur run" keeps a capsule's sessions in when run from the capsule's
directory. For a run with --workdir DIR, pass --workdir DIR/.murmur.`

const traceLong = `Read what an agent session did, from the trace.jsonl "mur run" writes in
its session directory: a summary of one session (show), its turns one by
one (steps), two sessions side by side (diff), or statistics over many
(report).

` + sessionHelp + `

A trace is read leniently: events of a type mur does not know are
skipped, fields it does not use ignored; a line that is not JSON, or a
known event missing a field, is named as FILE:LINE (E-TRC-001).`

// traceOptions are the flags every trace command has.
type traceOptions struct {
	workdir string
}

func newTraceCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Summarise, step through, compare and report on agent sessions' traces",
		Long:  traceLong,
		Example: `  mur trace show                  the newest session, summed up
  mur trace steps --verbose 9f3a  what each turn of session …9f3a did
  mur trace diff                  the two newest sessions, @2 then @1
  mur trace report --since 1d     statistics over the last day's sessions`,
		Args: cobra.ArbitraryArgs,
		RunE: runGroup,
	}
	cmd.AddCommand(newTraceShowCommand(a), newTraceStepsCommand(a), newTraceDiffCommand(a), newTraceReportCommand(a))
	return cmd
}

// addWorkdirFlag adds --workdir to a trace command.
func addWorkdirFlag(cmd *cobra.Command, opts *traceOptions) {
	cmd.Flags().StringVar(&opts.workdir, "workdir", "", "directory holding the ses_… session directories (default ./workdir)")
}

// dir is the workdir the trace commands look in.
func (o *traceOptions) dir() string {
	if o.workdir == "" {
		return traceview.DefaultWorkdir()
	}
	return o.workdir
}

// selectSession is the trace SESSION names: args[0], or the newest
// session when there is none.
func (o *traceOptions) selectSession(args []string) (traceview.Ref, error) {
	if len(args) == 0 {
		return traceview.Newest(o.dir())
	}
	return traceview.Select(o.dir(), args[0])
}

// atMostOne accepts no positional argument or one, named name.
func atMostOne(name string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 1 {
			return usagef(cmd, "unexpected argument %q: give one %s at most", args[1], name)
		}
		return nil
	}
}

// heading is a section's title line, "── Title ───…", width characters
// long.
func heading(title string, width int) string {
	s := "── " + title + " "
	return s + strings.Repeat("─", max(width-utf8.RuneCountInString(s), 0))
}

// rule is n box-drawing dashes.
func rule(n int) string { return strings.Repeat("─", n) }

// lines writes each line with a newline, stopping at the first error.
type lines struct {
	w   io.Writer
	err error
}

func (l *lines) printf(format string, args ...any) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format+"\n", args...)
	}
}
