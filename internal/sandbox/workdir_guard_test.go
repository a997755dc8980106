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

	write := func(name string, size int) {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// 600 bytes (the link's 4096 not counted): within the ceiling. A tick
	// is taken only once the previous walk is over, so after the third
	// send the first two walks are done and found nothing to latch.
	write("a.txt", 600)
	for range 3 {
		ticks <- time.Now()
	}
	if len(latched) != 0 || g.Breach() != nil {
		t.Fatal("latched within the ceiling")
	}
	write("b.txt", 600) // 1200: past it; the walk still running may be the one that sees it
	select {
	case ticks <- time.Now():
	case <-done:
	}
	b := <-latched
	if want := "workdir grew to 1200 bytes, past the 1000 byte ceiling (capabilities.resources.workdir_max_bytes)"; b.Error() != want {
		t.Errorf("breach = %q, want %q", b, want)
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
