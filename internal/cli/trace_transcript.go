package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/agent/transcript"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/timeline"
	"github.com/mur-go/mur/internal/traceview"
)

const traceTranscriptLong = `Print a session's transcript: for each task and turn, what the model
was sent (the messages new since its previous request) and answered, and
what every tool, shell command, hook and compaction was given and
returned, with how each ended and how long it took.

The transcript is the session's transcript.jsonl, written as the run goes
(a killed run keeps what it had), with the session's secrets redacted; a
text longer than 64 KiB was cut when recorded, and says so. Guests can
write the session directory, so what is printed is escaped: no control
character reaches the terminal.`

func newTraceTranscriptCommand(a *app) *cobra.Command {
	var opts traceOptions
	cmd := &cobra.Command{
		Use:   "transcript [SESSION]",
		Short: "Print what the model was sent and said and what every tool returned",
		Long:  traceTranscriptLong + "\n\n" + sessionHelp,
		Example: `  mur trace transcript
  mur trace transcript 9f3a
  mur trace transcript workdir/ses_01a2…`,
		Args: atMostOne("SESSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.loadTimeline(&opts, args)
			if err != nil {
				return err
			}
			return timeline.WriteText(a.stdout, s)
		},
	}
	addWorkdirFlag(cmd, &opts)
	return cmd
}

// loadTimeline reads the transcript of the session args names (the
// newest without one), warning on stderr of each line it could not
// read.
func (a *app) loadTimeline(opts *traceOptions, args []string) (*timeline.Session, error) {
	ref, err := opts.selectSession(args)
	if err != nil {
		return nil, err
	}
	dir := ref.SessionDir()
	f, err := transcript.ReadSession(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, diag.Wrap(traceview.CodeNotFound, err, "%s has no %s", dir, transcript.FileName).
			WithHint("agent sessions run by this mur keep one; a script capsule's session, or one from an older mur, has only trace.jsonl")
	}
	if err != nil {
		return nil, diag.Wrap(traceview.CodeIO, err, "reading the transcript: %v", err)
	}
	s := timeline.Build(f)
	for _, p := range s.Problems {
		fmt.Fprintf(a.stderr, "mur: warning: %s\n", p)
	}
	return s, nil
}
