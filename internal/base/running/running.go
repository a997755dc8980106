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

// List returns the registered sessions, most recent first, skipping (and
// removing) entries whose process is gone.
func List(dir string, alive func(pid int) bool) ([]Entry, error) {
	files, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	var out []Entry
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".json") || !f.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, f.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var e Entry
		if json.Unmarshal(data, &e) != nil || e.SessionID+".json" != f.Name() {
			continue
		}
		if !alive(e.PID) {
			os.Remove(path)
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, nil
}

// Resolve finds the session sel names: a full id, a suffix of 4 or more
// characters, @N (the N-th most recent, from 1) or its workdir path.
func Resolve(entries []Entry, sel string) (Entry, error) {
	if n, ok := strings.CutPrefix(sel, "@"); ok {
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 {
			return Entry{}, fmt.Errorf("%q: want @1 for the most recent session, @2 for the one before, …", sel)
		}
		if i > len(entries) {
			return Entry{}, fmt.Errorf("%s: only %d session(s) running: %w", sel, len(entries), ErrNotFound)
		}
		return entries[i-1], nil
	}
	var match []Entry
	abs, _ := filepath.Abs(sel)
	for _, e := range entries {
		switch {
		case e.SessionID == sel, len(sel) >= 4 && strings.HasSuffix(e.SessionID, sel), e.Workdir != "" && e.Workdir == abs:
			match = append(match, e)
		}
	}
	switch len(match) {
	case 0:
		if len(sel) < 4 && !strings.HasPrefix(sel, "ses_") {
			return Entry{}, fmt.Errorf("%q is too short: give 4 or more characters of the session id: %w", sel, ErrNotFound)
		}
		return Entry{}, fmt.Errorf("%q: %w (see mur ps)", sel, ErrNotFound)
	case 1:
		return match[0], nil
	}
	return Entry{}, fmt.Errorf("%q matches %d sessions; give more of the id", sel, len(match))
}
