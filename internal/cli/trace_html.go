package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/timeline"
)

const traceHTMLLong = `Write one HTML page that shows a session to someone who was not there:
for each task, a timeline of its model calls, tool and shell calls, hooks
and compactions with their durations, the tokens of each turn, and the
transcript (what the model was sent and answered, what every tool was
given and returned).

The page is self-contained: its style is inline, it has no script, and
its Content Security Policy forbids loading anything, so opening it
reaches no network. Every text in it comes from the transcript, where
guests and models wrote, and is escaped.

-o FILE is where it goes (default: <session id>.html in the current
directory; "-" is stdout). The file is written whole or not at all.`

func newTraceHTMLCommand(a *app) *cobra.Command {
	var (
		opts traceOptions
		out  string
	)
	cmd := &cobra.Command{
		Use:   "html [SESSION]",
		Short: "Write a self-contained HTML page of a session's timeline and transcript",
		Long:  traceHTMLLong + "\n\n" + sessionHelp,
		Example: `  mur trace html
  mur trace html 9f3a -o run.html
  mur trace html workdir/ses_01a2… -o - > run.html`,
		Args: atMostOne("SESSION"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.loadTimeline(&opts, args)
			if err != nil {
				return err
			}
			var page bytes.Buffer
			if err := timeline.WriteHTML(&page, s); err != nil {
				return fmt.Errorf("drawing the page: %w", err)
			}
			if out == "-" {
				_, err := a.stdout.Write(page.Bytes())
				return err
			}
			if out == "" {
				out = s.ID + ".html"
				if s.ID == "" {
					out = "session.html"
				}
			}
			if err := writeWhole(out, page.Bytes()); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", out)
			return nil
		},
	}
	addWorkdirFlag(cmd, &opts)
	cmd.Flags().StringVarP(&out, "output", "o", "", `the page's file ("-": stdout)`)
	return cmd
}

// writeWhole puts data at path through a new file beside it renamed into
// place: an interrupted write leaves no half page, and a link at path is
// replaced, not followed.
func writeWhole(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("-o %s is a directory; name a file", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mur-trace-*.html")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Chmod(0o644), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
