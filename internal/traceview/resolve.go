package traceview

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
)

// A session selector names one trace: a path (it contains "/" or ends in
// ".jsonl"; a directory names the trace.jsonl in it), a full session id
// (ses_ and 32 characters), @N (the N-th newest session), or the end of a
// session id, in any case.

// DefaultWorkdir is ./workdir, where `mur run` keeps a project's
// sessions: the trace commands' default --workdir.
func DefaultWorkdir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "workdir"
	}
	return filepath.Join(wd, "workdir")
}

// Session is one session directory of a workdir.
type Session struct {
	// ID is its name, ses_ and the session id.
	ID string
	// Rel is its path in the workdir: ID, or .murmur/ID for a run with
	// `mur run --workdir`, which keeps its sessions there.
	Rel string
}

// murmurDir is where a run with --workdir keeps its sessions.
const murmurDir = ".murmur"

// Sessions are workdir's session directories (ses_…), directly in it or
// in its .murmur/, by id: oldest first, as session ids begin with their
// creation time. A missing workdir has none. A link is not a session
// directory: it could lead out of the workdir.
func Sessions(workdir string) ([]Session, error) {
	var out []Session
	for _, base := range []string{"", murmurDir} {
		dir := filepath.Join(workdir, base)
		if fi, err := os.Stat(dir); err != nil && errors.Is(err, fs.ErrNotExist) || err == nil && !fi.IsDir() {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, diag.Wrap(CodeIO, err, "failed to read %s: %v", dir, err)
		}
		for _, e := range entries {
			// ReadDir's types come from lstat: a link is never a directory
			// here. A name mur would have to escape to print is none of its.
			if strings.HasPrefix(e.Name(), "ses_") && e.IsDir() && clean(e.Name()) == e.Name() {
				out = append(out, Session{ID: e.Name(), Rel: path.Join(base, e.Name())})
			}
		}
	}
	slices.SortFunc(out, func(a, b Session) int { return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Rel, b.Rel)) })
	return out, nil
}

// sessionRef is the trace of session s in workdir.
func sessionRef(workdir string, s Session) Ref {
	return Ref{Dir: workdir, Name: path.Join(s.Rel, trace.FileName), Path: filepath.Join(workdir, filepath.FromSlash(s.Rel), trace.FileName)}
}

// Newest is the trace of workdir's newest session.
func Newest(workdir string) (Ref, error) {
	all, err := Sessions(workdir)
	if err != nil {
		return Ref{}, err
	}
	if len(all) == 0 {
		return Ref{}, noSessions(workdir)
	}
	return sessionRef(workdir, all[len(all)-1]), nil
}

func noSessions(workdir string) error {
	return diag.New(CodeSelect, "no sessions found in workdir at %s", workdir).
		WithHint("run a capsule with `mur run` first, or point --workdir at the directory holding its ses_… directories")
}

// Select is the trace sel names in workdir. A path to a directory names
// the trace.jsonl in it.
func Select(workdir, sel string) (Ref, error) {
	switch {
	case strings.Contains(sel, "/") || strings.HasSuffix(sel, ".jsonl"):
		if fi, err := os.Stat(sel); err == nil && fi.IsDir() {
			return Ref{Dir: sel, Name: trace.FileName, Path: filepath.Join(sel, trace.FileName)}, nil
		}
		return Ref{Dir: filepath.Dir(sel), Name: filepath.Base(sel), Path: sel}, nil
	case strings.HasPrefix(sel, "@"):
		return ordinal(workdir, sel)
	case strings.HasPrefix(sel, "ses_") && len(sel) == 36:
		for _, rel := range []string{sel, path.Join(murmurDir, sel)} {
			ref := sessionRef(workdir, Session{ID: sel, Rel: rel})
			if _, err := os.Lstat(ref.Path); err == nil {
				return ref, nil
			}
		}
		return Ref{}, diag.New(CodeSelect, "session %s not found in %s", sel, workdir)
	}
	all, err := Sessions(workdir)
	if err != nil {
		return Ref{}, err
	}
	suffix := strings.ToLower(sel)
	var matches []Session
	var ids []string
	for _, s := range all {
		if strings.HasSuffix(strings.ToLower(s.ID), suffix) {
			matches, ids = append(matches, s), append(ids, s.Rel)
		}
	}
	switch len(matches) {
	case 0:
		return Ref{}, diag.New(CodeSelect, "no session found matching suffix '%s' in %s", clean(sel), workdir)
	case 1:
		return sessionRef(workdir, matches[0]), nil
	}
	return Ref{}, diag.New(CodeSelect, "ambiguous: '%s' matches %d sessions — provide more characters\n  %s",
		clean(sel), len(matches), strings.Join(ids, "\n  "))
}

// ordinal is the trace of @N, the N-th newest session in workdir.
func ordinal(workdir, sel string) (Ref, error) {
	n, err := strconv.ParseUint(sel[1:], 10, 0)
	switch {
	case err != nil:
		return Ref{}, diag.New(CodeSelect, "invalid ordinal '%s' — expected @1, @2, ...", clean(sel))
	case n == 0:
		return Ref{}, diag.New(CodeSelect, "ordinal must be @1 or higher")
	}
	all, err := Sessions(workdir)
	if err != nil {
		return Ref{}, err
	}
	if len(all) == 0 {
		return Ref{}, noSessions(workdir)
	}
	if n > uint64(len(all)) {
		return Ref{}, diag.New(CodeSelect, "@%d is out of range — workdir has %d session%s", n, len(all), plural(len(all)))
	}
	return sessionRef(workdir, all[len(all)-int(n)]), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
