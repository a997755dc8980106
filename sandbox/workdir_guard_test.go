package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The guard's walk, driven by the test's ticks: regular files count,
// links are not followed, and the first total past the ceiling latches
// once, with the spec's text, and stays.
func TestWorkdirGuardLatches(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "huge")
	if err := os.WriteFile(outside, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	latched := make(chan *WorkdirBreach, 2)
	g := &WorkdirGuard{Dir: dir, Max: 1000, OnLatch: func(b *WorkdirBreach) { latched <- b }}
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); g.Run(ctx, ticks) }()

	for _, step := range []struct {
		name  string
		size  int
		latch bool
	}{
		{"a.txt", 600, false}, // 600: within the ceiling; the link's 4096 not counted
		{"b.txt", 600, true},  // 1200: past it
	} {
		if err := os.WriteFile(filepath.Join(dir, step.name), make([]byte, step.size), 0o644); err != nil {
			t.Fatal(err)
		}
		ticks <- time.Now()
		if !step.latch {
			if err := g.Check(); err != nil {
				t.Fatalf("latched at %s: %v", step.name, err)
			}
			continue
		}
		b := <-latched
		if want := "workdir grew to 1200 bytes, past the 1000 byte ceiling (capabilities.resources.workdir_max_bytes)"; b.Error() != want {
			t.Errorf("breach = %q, want %q", b, want)
		}
	}
	<-done // Run returns once latched
	if err := os.Remove(filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if err := (Trampoline{Guard: g}).Refusal(); !errors.Is(err, ErrWorkdirCeiling) || g.Check() == nil || len(latched) != 0 {
		t.Errorf("the breach did not stay latched, or was reported twice: %v", err)
	}
	if err := (Trampoline{}).Refusal(); err != nil {
		t.Errorf("no guard refused: %v", err)
	}
}
