package timeline

// This file is a stand-in: `mur trace`'s own session resolver (package
// traceview) replaces it once both are on main.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/stage"
)

// Codes of FindSession's refusals (Murmur's for `mur trace`).
const (
	// CodeSelect: the selector names no session, or more than one.
	CodeSelect diag.Code = "E-TRC-002"
	// CodeNotFound: the workdir or the path does not exist.
	CodeNotFound diag.Code = "E-IO-001"
)

// minSuffix is the shortest end of a session id a selector may be.
const minSuffix = 4

// FindSession is the session directory sel names: a path to a session
// directory (or to a file in one), else a session id or its last
// characters (at least 4) among the sessions under workdir (workdir/ses_*
// and, for runs with --workdir, workdir/.murmur/ses_*); "" is the newest
// of them. Only real directories with the session id form count there:
// a link is never followed.
func FindSession(workdir, sel string) (string, error) {
	if _, err := os.Lstat(sel); sel != "" && (err == nil || strings.ContainsRune(sel, filepath.Separator)) {
		return sessionPath(sel)
	}
	ids, dirs, err := sessionsUnder(workdir)
	if err != nil {
		return "", err
	}
	if len(ids) == 0 {
		return "", diag.New(CodeSelect, "no sessions in %s", workdir).
			WithHint("run a capsule there first, pass --workdir DIR, or name a session directory")
	}
	if sel == "" {
		return dirs[len(dirs)-1], nil
	}
	var found []int
	for i, id := range ids {
		if id == sel || (len(sel) >= minSuffix && strings.HasSuffix(id, sel)) {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return "", diag.New(CodeSelect, "no session in %s is %q or ends with it", workdir, sel).
			WithHint("mur sessions list shows them; a suffix needs at least 4 characters")
	case 1:
		return dirs[found[0]], nil
	}
	var names []string
	for _, i := range found {
		names = append(names, ids[i])
	}
	return "", diag.New(CodeSelect, "%q names %d sessions in %s: %s", sel, len(found), workdir, strings.Join(names, ", ")).
		WithHint("give more of the id")
}

// sessionPath is the session directory a path names: the directory, or
// the one holding the file.
func sessionPath(p string) (string, error) {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", diag.Wrap(CodeNotFound, err, "%s does not exist", p).
			WithHint("name a session directory, a session id, or the last characters of one")
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return filepath.Dir(p), nil
	}
	return p, nil
}

// sessionsUnder lists the session directories under workdir, oldest
// first (ids are time-ordered).
func sessionsUnder(workdir string) (ids, dirs []string, err error) {
	fi, err := os.Stat(workdir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, diag.Wrap(CodeNotFound, err, "workdir %s does not exist", workdir).
			WithHint("run in the capsule's directory, pass --workdir DIR, or name a session directory")
	case err != nil:
		return nil, nil, err
	case !fi.IsDir():
		return nil, nil, diag.New(CodeNotFound, "workdir %s is not a directory", workdir)
	}
	type found struct{ id, dir string }
	var all []found
	for _, base := range []string{workdir, filepath.Join(workdir, ".murmur")} {
		entries, err := os.ReadDir(base)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		for _, e := range entries {
			// DirEntry types come from lstat: a link is never a directory.
			if e.IsDir() && stage.ValidSessionID(e.Name()) {
				all = append(all, found{e.Name(), filepath.Join(base, e.Name())})
			}
		}
	}
	slices.SortFunc(all, func(a, b found) int { return strings.Compare(a.id, b.id) })
	for _, f := range all {
		ids, dirs = append(ids, f.id), append(dirs, f.dir)
	}
	return ids, dirs, nil
}
