package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/stage"
)

// sessionsProject is a capsule dir whose workdir/ holds sessions created
// at the given ages, plus things prune must never touch: a directory and a
// file not named like sessions, a file named like one, and a symlink named
// like an old session pointing at a directory outside the project.
type sessionsProject struct {
	dir, workdir, outside string
	ids                   []string // by ages, oldest first
	linkID                string
}

func newSessionsProject(t *testing.T, ages ...time.Duration) *sessionsProject {
	t.Helper()
	_, capsule := sandbox(t)
	p := &sessionsProject{dir: capsule, workdir: filepath.Join(capsule, "workdir"), outside: t.TempDir()}
	mkID := func(age time.Duration) string {
		id, err := stage.NewSessionID(time.Now().Add(-age), bytes.NewReader(bytes.Repeat([]byte{7}, 16)))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, age := range ages {
		id := mkID(age)
		p.ids = append(p.ids, id)
		writeFile(t, filepath.Join(p.workdir, id, "out", "result.txt"), strings.Repeat("x", 1000))
	}
	writeFile(t, filepath.Join(p.outside, "precious.txt"), "keep me")
	writeFile(t, filepath.Join(p.workdir, "notes", "todo.txt"), "mine")
	writeFile(t, filepath.Join(p.workdir, "ses_not-a-session"), "mine")
	writeFile(t, filepath.Join(p.workdir, mkID(90*24*time.Hour+time.Hour)), "a file named like a session")
	p.linkID = mkID(100 * 24 * time.Hour)
	if err := os.Symlink(p.outside, filepath.Join(p.workdir, p.linkID)); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// remaining reports which of the project's sessions are still there.
func (p *sessionsProject) remaining(t *testing.T) []bool {
	t.Helper()
	var out []bool
	for _, id := range p.ids {
		_, err := os.Lstat(filepath.Join(p.workdir, id))
		out = append(out, err == nil)
	}
	return out
}

// untouched checks that nothing but sessions was removed or followed.
func (p *sessionsProject) untouched(t *testing.T) {
	t.Helper()
	for _, path := range []string{
		filepath.Join(p.outside, "precious.txt"),
		filepath.Join(p.workdir, "notes", "todo.txt"),
		filepath.Join(p.workdir, "ses_not-a-session"),
		filepath.Join(p.workdir, p.linkID),
	} {
		if _, err := os.Lstat(path); err != nil {
			t.Errorf("prune removed %s: %v", path, err)
		}
	}
}

func TestSessionsList(t *testing.T) {
	p := newSessionsProject(t, 48*time.Hour, time.Hour)
	o := mur(t, "sessions", "list")
	o.want(t, 0, "SESSION", "")
	lines := strings.Split(strings.TrimSpace(o.stdout), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], p.ids[0]) || !strings.HasPrefix(lines[2], p.ids[1]) {
		t.Fatalf("want the two sessions oldest first, got:\n%s", o.stdout)
	}
	if !strings.Contains(lines[1], "1000 B") || !strings.HasPrefix(lines[3], "2 sessions, 2.0 KiB in "+p.workdir) {
		t.Errorf("sizes or summary wrong:\n%s", o.stdout)
	}
	if strings.Contains(o.stdout, p.linkID) || strings.Contains(o.stdout, "notes") {
		t.Errorf("list shows something that is not a session directory:\n%s", o.stdout)
	}
}

func TestSessionsPrune(t *testing.T) {
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name string
		args []string
		left []bool // sessions aged 10d, 3d, 2h, 1m
		out  string
	}{
		{"older than", []string{"--older-than", "7d"}, []bool{false, true, true, true}, "Removed 1 session, 1000 B"},
		{"keep", []string{"--keep", "2"}, []bool{false, false, true, true}, "Removed 2 sessions"},
		{"both", []string{"--older-than", "1h", "--keep", "3"}, []bool{false, true, true, true}, "Removed 1 session"},
		{"go duration", []string{"--older-than", "36h"}, []bool{false, false, true, true}, "Removed 2 sessions"},
		{"dry run", []string{"--keep", "0", "--dry-run"}, []bool{true, true, true, true}, "Would remove 4 sessions"},
		{"keep 0 removes every session", []string{"--keep", "0"}, []bool{false, false, false, false}, "Removed 4 sessions"},
		{"nothing", []string{"--older-than", "30d"}, []bool{true, true, true, true}, "Nothing to prune"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newSessionsProject(t, 10*day, 3*day, 2*time.Hour, time.Minute)
			mur(t, append([]string{"sessions", "prune"}, tc.args...)...).want(t, 0, tc.out, "")
			if got := p.remaining(t); !slices.Equal(got, tc.left) {
				t.Errorf("sessions left %v, want %v", got, tc.left)
			}
			p.untouched(t)
		})
	}
}

// A workdir that is itself a symbolic link is refused, not followed.
func TestSessionsPruneRefusesSymlinkedWorkdir(t *testing.T) {
	_, capsule := sandbox(t)
	outside := t.TempDir()
	id, _ := stage.NewSessionID(time.Now().Add(-1000*time.Hour), nil)
	writeFile(t, filepath.Join(outside, id, "precious.txt"), "keep me")
	if err := os.Symlink(outside, filepath.Join(capsule, "workdir")); err != nil {
		t.Fatal(err)
	}
	mur(t, "sessions", "prune", "--keep", "0").want(t, 1, "", "is a symbolic link")
	if _, err := os.Stat(filepath.Join(outside, id, "precious.txt")); err != nil {
		t.Errorf("prune followed the workdir symlink: %v", err)
	}
}

func TestSessionsPruneUsage(t *testing.T) {
	newSessionsProject(t, time.Hour)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "say which sessions to remove"},
		{[]string{"--older-than", "soon"}, "--older-than: want a duration"},
		{[]string{"--older-than", "-1h"}, "--older-than: want a duration"},
		{[]string{"--keep", "-1"}, "--keep must be 0 or more"},
	} {
		mur(t, append([]string{"sessions", "prune"}, tc.args...)...).want(t, 2, "", tc.want)
	}
}
