package running

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRegisterListResolve(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "running")
	now := time.Now()
	entries := []Entry{
		{SessionID: "ses_0000000000000000000000000000aaaa", PID: 1, Started: now.Add(-2 * time.Minute), Workdir: "/w/one"},
		{SessionID: "ses_0000000000000000000000000000bbbb", PID: 2, Started: now.Add(-time.Minute)},
		{SessionID: "ses_0000000000000000000000000000cccc", PID: 3, Started: now},
	}
	var removes []func()
	for _, e := range entries {
		rm, err := Register(dir, e)
		if err != nil {
			t.Fatal(err)
		}
		removes = append(removes, rm)
	}
	alive := func(pid int) bool { return pid != 3 } // the newest died without cleaning up
	got, err := List(dir, alive)
	if err != nil || len(got) != 2 || got[0].PID != 2 || got[1].PID != 1 {
		t.Fatalf("List = %+v, %v; want pids 2, 1", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, entries[2].SessionID+".json")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the dead session's entry was kept")
	}
	tests := []struct {
		sel     string
		wantPID int
		notFind bool
	}{
		{"ses_0000000000000000000000000000aaaa", 1, false},
		{"aaaa", 1, false},
		{"@1", 2, false},
		{"@2", 1, false},
		{"@3", 0, true},
		{"/w/one", 1, false},
		{"aa", 0, true},
		{"dddd", 0, true},
	}
	for _, tt := range tests {
		e, err := Resolve(got, tt.sel)
		if tt.notFind != errors.Is(err, ErrNotFound) || (!tt.notFind && e.PID != tt.wantPID) {
			t.Errorf("Resolve(%q) = pid %d, %v", tt.sel, e.PID, err)
		}
	}
	if _, err := Resolve(got, "@x"); err == nil {
		t.Error("@x resolved")
	}
	removes[0]()
	if got, _ := List(dir, alive); len(got) != 1 {
		t.Errorf("after remove: %+v", got)
	}
}
