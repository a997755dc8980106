package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

const sessionsLong = `Every "mur run" without --workdir creates a session directory,
<manifest dir>/workdir/<session id>, holding what the capsule wrote, its
staged tools, out/ and logs/. mur never deletes them on its own: they are
the record of each run. "mur sessions list" shows them, oldest first, and
"mur sessions prune" removes the ones you no longer need.

Only directories whose name has the session id form (ses_ and 32 hex
digits) directly under workdir/ count; anything else there, and any
symbolic link, is left alone and never followed. Sessions of runs with
--workdir DIR live in DIR/.murmur/ and are not touched.`

// sessionsOptions are the flags the sessions commands share.
type sessionsOptions struct {
	manifest string
}

func newSessionsCommand(a *app) *cobra.Command {
	var opts sessionsOptions
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List and prune the session directories runs leave behind",
		Long:  sessionsLong,
		Args:  cobra.ArbitraryArgs,
		RunE:  runGroup,
	}
	cmd.PersistentFlags().StringVar(&opts.manifest, "manifest", manifest.FileName, "the capsule manifest whose workdir/ holds the sessions")
	cmd.AddCommand(newSessionsListCommand(a, &opts), newSessionsPruneCommand(a, &opts))
	return cmd
}

func newSessionsListCommand(a *app, opts *sessionsOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List a capsule's sessions, oldest first, with their size",
		Example: "  mur sessions list\n  mur sessions list --manifest path/to/murmur.yaml",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, sessions, err := findSessions(opts.manifest)
			if err != nil {
				return err
			}
			if len(sessions) == 0 {
				fmt.Fprintf(a.stdout, "No sessions in %s.\n", dir)
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SESSION\tCREATED\tSIZE")
			var total int64
			for _, s := range sessions {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", s.id, s.created.Local().Format(time.DateTime), humanBytes(s.size))
				total += s.size
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%d %s, %s in %s\n", len(sessions), plural(len(sessions), "session", "sessions"), humanBytes(total), dir)
			return nil
		},
	}
}

// session is one session directory under workdir/.
type session struct {
	id      string
	created time.Time
	size    int64
}

// findSessions returns the manifest's workdir and the sessions in it,
// oldest first. A workdir that is a symbolic link is refused: pruning
// through it would delete outside the project.
func findSessions(manifestPath string) (string, []session, error) {
	abs, err := filepath.Abs(manifestPath)
	if err != nil {
		return "", nil, fmt.Errorf("resolving --manifest: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return "", nil, fmt.Errorf("no capsule manifest at %s (pass --manifest or run in the capsule directory): %w", abs, err)
	}
	dir := filepath.Join(filepath.Dir(abs), "workdir")
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dir, nil, nil
	case err != nil:
		return dir, nil, err
	case info.Mode()&fs.ModeSymlink != 0:
		return dir, nil, fmt.Errorf("%s is a symbolic link; mur manages sessions only in a real directory", dir)
	case !info.IsDir():
		return dir, nil, fmt.Errorf("%s is not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return dir, nil, err
	}
	defer root.Close()
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return dir, nil, err
	}
	var out []session
	for _, e := range entries {
		created, ok := stage.SessionIDTime(e.Name())
		// DirEntry types come from lstat: a symlink is never a directory here.
		if !ok || !e.IsDir() {
			continue
		}
		out = append(out, session{id: e.Name(), created: created, size: treeSize(root.FS(), e.Name())})
	}
	slices.SortFunc(out, func(a, b session) int { return a.created.Compare(b.created) })
	return dir, out, nil
}

// treeSize adds up the regular files under name; WalkDir never follows a
// symbolic link, and fsys (an os.Root) cannot leave the workdir anyway.
func treeSize(fsys fs.FS, name string) int64 {
	var n int64
	fs.WalkDir(fsys, name, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
