package eval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// EvalFile is the name of a session's eval file in its directory.
const EvalFile = "eval.jsonl"

// sessionPrefix begins every session directory's name; a full session id
// is it and 32 hex digits.
const (
	sessionPrefix = "ses_"
	sessionIDLen  = 36
)

// Source is an eval file to read: a path the user named, or a session's
// eval.jsonl in a workdir.
type Source struct {
	// Path is the file, as shown to the user.
	Path string
	// workdir and rel are set for a session's file, read confined to
	// workdir.
	workdir, rel string
}

// Locate is the eval file selector names (Murmur's order): "" is the
// newest session in workdir; a selector with a / or ending in .jsonl is
// a path; a full session id (ses_ and 32 hex digits) is that session;
// anything else is the end of one session's id, matched without regard
// to case. Sessions are the ses_* directories directly in workdir (a
// link is not one).
func Locate(workdir, selector string) (Source, error) {
	if selector == "" {
		names, err := sessions(workdir)
		if err != nil {
			return Source{}, err
		}
		if len(names) == 0 {
			return Source{}, diag.New(CodeSession, "no sessions found in workdir at %s", workdir).
				WithHint("run the capsule first (mur run, mur eval run), pass --workdir, or name the eval file")
		}
		return sessionSource(workdir, names[len(names)-1]), nil
	}
	if strings.Contains(selector, "/") || strings.HasSuffix(selector, ".jsonl") {
		return Source{Path: selector}, nil
	}
	if strings.HasPrefix(selector, sessionPrefix) && len(selector) == sessionIDLen {
		s := sessionSource(workdir, selector)
		if _, err := os.Lstat(s.Path); err != nil {
			return Source{}, diag.Wrap(CodeSession, err, "session %s not found in %s", selector, workdir)
		}
		return s, nil
	}
	names, err := sessions(workdir)
	if err != nil {
		return Source{}, err
	}
	suffix := strings.ToLower(selector)
	var matches []string
	for _, n := range names {
		if strings.HasSuffix(strings.ToLower(n), suffix) {
			matches = append(matches, n)
		}
	}
	switch len(matches) {
	case 0:
		return Source{}, diag.New(CodeSession, "no session found matching suffix '%s' in %s", selector, workdir)
	case 1:
		return sessionSource(workdir, matches[0]), nil
	}
	lines := make([]string, len(matches))
	for i, m := range matches {
		lines[i] = "  " + Printable(m)
	}
	return Source{}, diag.New(CodeSession, "ambiguous: '%s' matches %d sessions — provide more characters\n%s",
		selector, len(matches), strings.Join(lines, "\n"))
}

func sessionSource(workdir, name string) Source {
	return Source{Path: filepath.Join(workdir, name, EvalFile), workdir: workdir, rel: filepath.Join(name, EvalFile)}
}

// sessions are the session directories in workdir, sorted (session ids
// sort by time); none when workdir is not a directory.
func sessions(workdir string) ([]string, error) {
	if fi, err := os.Stat(workdir); err != nil || !fi.IsDir() {
		return nil, nil
	}
	entries, err := os.ReadDir(workdir)
	if err != nil {
		return nil, diag.Wrap(CodeIO, err, "failed to read %s: %v", workdir, err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), sessionPrefix) && e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// Read reads and decodes the file.
func (s Source) Read() (*File, error) {
	missing := "eval file not found: " + s.Path
	if s.workdir == "" {
		return ReadRecords(s.Path)
	}
	root, err := os.OpenRoot(s.workdir)
	if err != nil {
		return nil, readError(s.Path, missing, err)
	}
	defer root.Close()
	data, err := readIn(root, s.rel, s.Path, missing)
	if err != nil {
		return nil, err
	}
	return ParseRecords(s.Path, data)
}
