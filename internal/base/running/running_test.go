package running

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// register writes entries into a fresh registry and returns its dir.
func register(t *testing.T, entries ...Entry) (string, []func()) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "running")
	var removes []func()
	for _, e := range entries {
		rm, err := Register(dir, e)
		if err != nil {
			t.Fatal(err)
		}
		removes = append(removes, rm)
	}
	return dir, removes
}

func TestRegisterListResolve(t *testing.T) {
	now := time.Now()
	entries := []Entry{
		{SessionID: "ses_0000000000000000000000000000aaaa", PID: 1, URL: "localhost:1001", Name: "alpha", Started: now.Add(-2 * time.Minute), Workdir: "/w/one"},
		{SessionID: "ses_0000000000000000000000000000bbbb", PID: 2, URL: "localhost:1002", Name: "beta", Started: now.Add(-time.Minute)},
		{SessionID: "ses_0000000000000000000000000000cccc", PID: 3, URL: "localhost:1003", Name: "gamma", Started: now},
		{SessionID: "ses_000000000000000000000000000" + "1bbbb", PID: 4, URL: "localhost:1004", Name: "beta", Started: now.Add(-3 * time.Minute)},
	}
	dir, removes := register(t, entries...)
	alive := func(pid int) bool { return pid != 3 } // gamma died without cleaning up
	got, err := List(dir, alive)
	if err != nil || len(got) != 3 || got[0].PID != 2 || got[1].PID != 1 || got[2].PID != 4 {
		t.Fatalf("List = %+v, %v; want pids 2, 1, 4", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, entries[2].SessionID+".json")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the dead session's entry was kept")
	}
	tests := []struct {
		sel       string
		wantPID   int
		notFound  bool
		ambiguous int
		badSel    bool
	}{
		{sel: "ses_0000000000000000000000000000aaaa", wantPID: 1},
		{sel: "aaaa", wantPID: 1},
		{sel: "@1", wantPID: 2},
		{sel: "@2", wantPID: 1},
		{sel: "@4", notFound: true},
		{sel: "/w/one", wantPID: 1},
		{sel: "alpha", wantPID: 1},
		{sel: "aa", notFound: true},
		{sel: "dddd", notFound: true},
		{sel: "gamma", notFound: true},
		{sel: "beta", ambiguous: 2},
		{sel: "bbbb", ambiguous: 2}, // a suffix of both beta sessions
		{sel: "@x", badSel: true},
		{sel: "@0", badSel: true},
	}
	for _, tt := range tests {
		e, err := Resolve(got, tt.sel)
		var amb *AmbiguousError
		var bad *SelectorError
		switch {
		case tt.notFound != errors.Is(err, ErrNotFound):
			t.Errorf("Resolve(%q) = %v, want not found %v", tt.sel, err, tt.notFound)
		case tt.ambiguous > 0 && (!errors.As(err, &amb) || len(amb.Matches) != tt.ambiguous):
			t.Errorf("Resolve(%q) = %v, want %d candidates", tt.sel, err, tt.ambiguous)
		case tt.badSel != errors.As(err, &bad):
			t.Errorf("Resolve(%q) = %v, want a selector error %v", tt.sel, err, tt.badSel)
		case tt.wantPID != 0 && (err != nil || e.PID != tt.wantPID):
			t.Errorf("Resolve(%q) = pid %d, %v; want pid %d", tt.sel, e.PID, err, tt.wantPID)
		}
	}
	removes[0]()
	if got, _ := List(dir, alive); len(got) != 2 {
		t.Errorf("after remove: %+v", got)
	}
}

// Resolving a name hands the user's token to the URL an entry names, so
// the registry trusts only what this user's mur wrote: a planted link, an
// entry naming another host, or a registry others can write to is never
// read.
func TestListReadsOnlyTheUsersOwnEntries(t *testing.T) {
	good := Entry{SessionID: "ses_0000000000000000000000000000aaaa", PID: 1, URL: "localhost:1001", Name: "good", Started: time.Now()}
	dir, _ := register(t, good,
		Entry{SessionID: "ses_0000000000000000000000000000bbbb", PID: 1, URL: "evil.example:443", Name: "offhost"},
		Entry{SessionID: "ses_0000000000000000000000000000cccc", PID: 1, URL: "localhost:1003/x", Name: "path"})
	outside := filepath.Join(t.TempDir(), "planted.json")
	if err := os.WriteFile(outside, []byte(`{"session_id":"ses_0000000000000000000000000000dddd","pid":1,"url":"localhost:1004","name":"linked"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "ses_0000000000000000000000000000dddd.json")); err != nil {
		t.Fatal(err)
	}
	alive := func(int) bool { return true }
	got, err := List(dir, alive)
	if err != nil || len(got) != 1 || got[0].Name != "good" {
		t.Fatalf("List = %+v, %v; want only the good entry", got, err)
	}

	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if got, err := List(dir, alive); err == nil || !strings.Contains(err.Error(), "writable by you alone") {
		t.Errorf("a world-writable registry: List = %+v, %v; want refused", got, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "running")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if got, err := List(link, alive); err == nil {
		t.Errorf("a registry that is a symbolic link: List = %+v; want refused", got)
	}
	if os.Getuid() == 0 {
		// A file another user owns (root can make one) is not this user's entry.
		if err := os.Chown(filepath.Join(dir, good.SessionID+".json"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if got, _ := List(dir, alive); len(got) != 0 {
			t.Errorf("an entry owned by uid 65534 was read: %+v", got)
		}
	}
}
