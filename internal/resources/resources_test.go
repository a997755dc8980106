package resources

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// A capsule that starts no native subprocess gets no scope, but its
// workdir is still guarded: the first walk past workdir_max_bytes latches,
// says so on stderr and in bootstrap.log, and is the session's breach.
func TestGuardWithoutScope(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fill"), make([]byte, 2000), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	ticks := make(chan time.Time)
	var stderr bytes.Buffer
	b, err := Start(context.Background(), Options{SessionID: "ses_test", Workdir: dir,
		Limits: policy.EffectiveResources{WorkdirMaxBytes: 1000}, Stderr: &stderr, Ticks: ticks,
		Bootstrap: func(line string) error { lines <- line; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Cgroup != nil {
		t.Fatal("a scope was made for a capsule that starts no subprocess")
	}
	if b.Breach() != nil {
		t.Fatal("a breach before the guard walked")
	}
	ticks <- time.Now()
	const want = "workdir grew to 2000 bytes, past the 1000 byte ceiling"
	if line := <-lines; line != policy.BootstrapPrefix+" "+want+" (capabilities.resources.workdir_max_bytes)" {
		t.Errorf("bootstrap line %q", line)
	}
	if !strings.HasPrefix(stderr.String(), "[capsule-runtime] "+want) {
		t.Errorf("stderr %q", stderr.String())
	}
	if err := b.Breach(); !errors.Is(err, sandbox.ErrWorkdirCeiling) {
		t.Errorf("breach %v", err)
	}
}

// A nil Bounds (a session run without them) has no breach and closes.
func TestNilBounds(t *testing.T) {
	var b *Bounds
	if b.Breach() != nil || b.Close() != nil {
		t.Fatal("a nil Bounds reports something")
	}
}
