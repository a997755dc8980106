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
  path/trace.jsonl     a trace file, or a session directory for the
                       trace.jsonl in it: anything holding a "/" or ending
                       in .jsonl is a path

Sessions are looked for in --workdir, by default ./workdir (where "mur
run" keeps a capsule's sessions when run from the capsule's directory),
and in its .murmur/ (where a run with "mur run --workdir DIR" keeps them:
pass --workdir DIR).`

// traceOptions are the flags every trace command has.
type traceOptions struct {
	workdir string
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
