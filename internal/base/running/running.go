// Package running is the registry of sessions being served: one JSON file
// per session in ~/.murmur/running, written by the A2A server once bound
// and removed when it stops, read by mur ps, stop and cancel. It never
// holds a token.
package running

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Entry is one served session.
type Entry struct {
	SessionID string    `json:"session_id"`
	PID       int       `json:"pid"`
	URL       string    `json:"url"`
	Name      string    `json:"name"`
	Version   string    `json:"version"`
	Workdir   string    `json:"workdir"`
	Started   time.Time `json:"started"`
	// Token reports whether the server wants a bearer token.
	Token bool `json:"token"`
}

// Dir is the registry directory under home.
func Dir(home string) string { return filepath.Join(home, ".murmur", "running") }

// ErrNotFound is Resolve's error when no session matches.
var ErrNotFound = errors.New("no running session matches")

// Register writes e and returns the function that removes it.
func Register(dir string, e Entry) (remove func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("registering the running session: %w", err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("registering the running session: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	path := filepath.Join(dir, e.SessionID+".json")
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("registering the running session: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("registering the running session: %w", err)
	}
	return func() { os.Remove(path) }, nil
}

// maxEntry bounds one entry file: mur writes a few hundred bytes.
const maxEntry = 64 << 10

// List returns the registered sessions, most recent first, skipping (and
// removing) entries whose process is gone. Resolving a name to a URL
// that then gets the user's token trusts these files, so List reads only
// what this user wrote: dir must be a directory of the user's own that
// no one else may write to (else an error), and an entry counts only if
// it is a regular file of the user's (never a link) whose URL is the
// localhost:PORT a server registers.
func List(dir string, alive func(pid int) bool) ([]Entry, error) {
	d, err := openOwnDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer d.Close()
	files, err := d.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	var out []Entry
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".json") || !f.Type().IsRegular() {
			continue
		}
		data, err := readOwnFile(d, f.Name(), maxEntry)
		if err != nil {
			continue
		}
		var e Entry
		if json.Unmarshal(data, &e) != nil || e.SessionID+".json" != f.Name() {
			continue
		}
		if _, ok := e.Port(); !ok {
			continue
		}
		if !alive(e.PID) {
			os.Remove(filepath.Join(dir, f.Name()))
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, nil
}

// Port is the port of the entry's URL, which must be localhost:PORT (what
// Register is given by the A2A server); ok is false for anything else.
func (e Entry) Port() (int, bool) {
	p, ok := strings.CutPrefix(e.URL, "localhost:")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != p {
		return 0, false
	}
	return n, true
}

// SelectorError is a selector that cannot name a session at all (@0,
// @x): a mistake in the command line.
type SelectorError struct{ Sel string }

func (e *SelectorError) Error() string {
	return fmt.Sprintf("%q: want @1 for the most recently started capsule, @2 for the one before, …", e.Sel)
}

// AmbiguousError is a selector more than one session answers to.
type AmbiguousError struct {
	Sel     string
	Matches []Entry
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q names %d running capsules; give one of their session ids:", e.Sel, len(e.Matches))
	for _, m := range e.Matches {
		fmt.Fprintf(&b, "\n  %s  %s v%s  %s", m.SessionID, m.Name, m.Version, m.URL)
	}
	return b.String()
}

// Resolve finds the session sel names among entries (List's order): @N
// is the N-th most recently started (from 1); anything else is matched
// against every session's id (whole, or its last 4 or more characters),
// its capsule's name and its workdir, and must match exactly one session
// (*AmbiguousError otherwise). No match is ErrNotFound.
func Resolve(entries []Entry, sel string) (Entry, error) {
	if n, ok := strings.CutPrefix(sel, "@"); ok {
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 {
			return Entry{}, &SelectorError{sel}
		}
		if i > len(entries) {
			return Entry{}, fmt.Errorf("%s: only %d capsule(s) running: %w", sel, len(entries), ErrNotFound)
		}
		return entries[i-1], nil
	}
	var match []Entry
	abs, _ := filepath.Abs(sel)
	for _, e := range entries {
		switch {
		case e.SessionID == sel, len(sel) >= 4 && strings.HasSuffix(e.SessionID, sel), e.Name == sel,
			e.Workdir != "" && e.Workdir == abs:
			match = append(match, e)
		}
	}
	switch len(match) {
	case 0:
		return Entry{}, fmt.Errorf("%q: %w: no session id ends with it (give 4 or more characters) and no capsule has that name (see mur ps)", sel, ErrNotFound)
	case 1:
		return match[0], nil
	}
	return Entry{}, &AmbiguousError{Sel: sel, Matches: match}
}
