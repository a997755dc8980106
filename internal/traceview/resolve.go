package traceview

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
)

// A session selector names one trace: a path (it contains "/" or ends in
// ".jsonl"), a full session id (ses_ and 32 characters), @N (the N-th
// newest session), or the end of a session id, in any case.

// DefaultWorkdir is ./workdir, where `mur run` keeps a project's
// sessions: the trace commands' default --workdir.
func DefaultWorkdir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "workdir"
	}
	return filepath.Join(wd, "workdir")
}

// Sessions are the names of workdir's session directories (ses_…),
// sorted: oldest first, as session ids begin with their creation time.
// A missing workdir has none. A link is not a session directory: it
// could lead out of the workdir.
func Sessions(workdir string) ([]string, error) {
	if fi, err := os.Stat(workdir); err != nil && errors.Is(err, fs.ErrNotExist) || err == nil && !fi.IsDir() {
		return nil, nil
	}
	entries, err := os.ReadDir(workdir)
	if err != nil {
		return nil, diag.Wrap(CodeIO, err, "failed to read %s: %v", workdir, err)
	}
	var out []string
	for _, e := range entries {
		// ReadDir's types come from lstat: a link is never a directory
		// here. A name mur would have to escape to print is none of its.
		if strings.HasPrefix(e.Name(), "ses_") && e.IsDir() && ok(e.Name()) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// sessionRef is the trace of session dir in workdir.
func sessionRef(workdir, dir string) Ref {
	name := dir + "/" + trace.FileName
	return Ref{Dir: workdir, Name: name, Path: filepath.Join(workdir, dir, trace.FileName)}
}

// Newest is the trace of workdir's newest session.
func Newest(workdir string) (Ref, error) {
	names, err := Sessions(workdir)
	if err != nil {
		return Ref{}, err
	}
	if len(names) == 0 {
		return Ref{}, noSessions(workdir)
	}
	return sessionRef(workdir, names[len(names)-1]), nil
}

func noSessions(workdir string) error {
	return diag.New(CodeSelect, "no sessions found in workdir at %s", workdir).
		WithHint("run a capsule with `mur run` first, or point --workdir at the directory holding its ses_… directories")
}

// Select is the trace sel names in workdir.
func Select(workdir, sel string) (Ref, error) {
	switch {
	case strings.Contains(sel, "/") || strings.HasSuffix(sel, ".jsonl"):
		return Ref{Dir: filepath.Dir(sel), Name: filepath.Base(sel), Path: sel}, nil
	case strings.HasPrefix(sel, "@"):
		return ordinal(workdir, sel)
	case strings.HasPrefix(sel, "ses_") && len(sel) == 36:
		ref := sessionRef(workdir, sel)
		if _, err := os.Lstat(ref.Path); err != nil {
			return Ref{}, diag.New(CodeSelect, "session %s not found in %s", sel, workdir)
		}
		return ref, nil
	}
	names, err := Sessions(workdir)
	if err != nil {
		return Ref{}, err
	}
	suffix := strings.ToLower(sel)
	var matches []string
	for _, n := range names {
		if strings.HasSuffix(strings.ToLower(n), suffix) {
			matches = append(matches, n)
		}
	}
	switch len(matches) {
	case 0:
		return Ref{}, diag.New(CodeSelect, "no session found matching suffix '%s' in %s", clean(sel), workdir)
	case 1:
		return sessionRef(workdir, matches[0]), nil
	}
	return Ref{}, diag.New(CodeSelect, "ambiguous: '%s' matches %d sessions — provide more characters\n  %s",
		clean(sel), len(matches), strings.Join(matches, "\n  "))
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
	names, err := Sessions(workdir)
	if err != nil {
		return Ref{}, err
	}
	if len(names) == 0 {
		return Ref{}, noSessions(workdir)
	}
	if n > uint64(len(names)) {
		return Ref{}, diag.New(CodeSelect, "@%d is out of range — workdir has %d session%s", n, len(names), plural(len(names)))
	}
	return sessionRef(workdir, names[len(names)-int(n)]), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
