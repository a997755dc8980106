package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Checkpoint signing across independent launches on one workdir (wit.md
// §6.10, the seed's resume test): session end signs, a new session start
// keeps a validly signed file, and a file a tool rewrote in between is
// quarantined before any hook runs.
func TestCheckpointSignTamperQuarantineResume(t *testing.T) {
	home := t.TempDir()
	s := staged(t, blocking("h", hookErrs))
	cp := filepath.Join(s.AccessibleDir, "checkpoints")
	if err := os.MkdirAll(cp, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(cp, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("summary.md", "goals: ship it")
	write("plan.json", `{"steps":[]}`)
	ctx := context.Background()
	launch := func() *Runtime {
		r := startRuntime(t, Options{Staged: s, Home: home})
		if err := r.SessionStart(ctx, sessionCtx); err != nil {
			t.Fatal(err)
		}
		return r
	}

	first := launch()
	// Nothing was signed yet: both files are quarantined by the first start.
	if got := bootstrapLog(t, s); !strings.Contains(got, "[checkpoint] rejected unsigned/tampered checkpoint file(s): checkpoints/summary.md, checkpoints/plan.json\n") {
		t.Fatalf("bootstrap log = %q", got)
	}
	write("summary.md", "goals: ship it")
	first.SessionEnd(ctx, agentSessionEnd())
	if _, err := os.Stat(filepath.Join(cp, "summary.md.sig")); err != nil {
		t.Fatalf("session end did not sign: %v", err)
	}
	keys, _ := filepath.Glob(filepath.Join(home, ".murmur", "checkpoint-keys", "*.key"))
	if len(keys) != 1 {
		t.Fatalf("keys = %v", keys)
	}
	if fi, _ := os.Stat(keys[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("key mode %v, want 0600", fi.Mode().Perm())
	}

	os.Remove(filepath.Join(s.LogsDir, "bootstrap.log"))
	launch().SessionEnd(ctx, agentSessionEnd())
	if _, err := os.Stat(filepath.Join(cp, "summary.md")); err != nil {
		t.Fatalf("a validly signed checkpoint did not survive the resume: %v", err)
	}
	if got := bootstrapLog(t, s); got != "" {
		t.Errorf("bootstrap log after a clean resume = %q", got)
	}

	write("summary.md", "tampered by a compromised tool")
	launch()
	if _, err := os.Stat(filepath.Join(cp, "summary.md")); !os.IsNotExist(err) {
		t.Errorf("tampered checkpoint still in place (%v)", err)
	}
	if b, _ := os.ReadFile(filepath.Join(cp, "summary.md.rejected")); string(b) != "tampered by a compromised tool" {
		t.Errorf("quarantined file = %q", b)
	}
	if _, err := os.Stat(filepath.Join(cp, "summary.md.sig")); !os.IsNotExist(err) {
		t.Error("the rejected file's signature was kept")
	}
	if got := bootstrapLog(t, s); got != "[checkpoint] rejected unsigned/tampered checkpoint file(s): checkpoints/summary.md\n" {
		t.Errorf("bootstrap log = %q", got)
	}
}

// A committed compaction signs too; a key that cannot be had fails open
// with the spec's lines and quarantines nothing.
func TestCheckpointCompactionAndKeyFailure(t *testing.T) {
	s := staged(t, blocking("a", hookAnswer050).bound(fnCompaction))
	cp := filepath.Join(s.AccessibleDir, "checkpoints")
	os.MkdirAll(cp, 0o755)
	os.WriteFile(filepath.Join(cp, "decisions.json"), []byte("[]"), 0o644)
	r := startRuntime(t, Options{Staged: s})
	if rep, err := r.Compaction(context.Background(), compaction); rep == nil || err != nil {
		t.Fatalf("compaction = %v, %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(cp, "decisions.json.sig")); err != nil {
		t.Errorf("a committed compaction did not sign: %v", err)
	}

	noHome := filepath.Join(t.TempDir(), "home-is-a-file")
	os.WriteFile(noHome, nil, 0o644)
	s2 := staged(t)
	os.MkdirAll(filepath.Join(s2.AccessibleDir, "checkpoints"), 0o755)
	os.WriteFile(filepath.Join(s2.AccessibleDir, "checkpoints", "summary.md"), []byte("x"), 0o644)
	r2 := startRuntime(t, Options{Staged: s2, Home: noHome})
	r2.SessionStart(context.Background(), sessionCtx)
	r2.SessionEnd(context.Background(), agentSessionEnd())
	got := bootstrapLog(t, s2)
	if !strings.Contains(got, "[checkpoint] signing key unavailable, skipping checkpoint verification: ") ||
		!strings.Contains(got, "[checkpoint] signing key unavailable, skipping checkpoint signing: ") {
		t.Errorf("bootstrap log = %q", got)
	}
	if _, err := os.Stat(filepath.Join(s2.AccessibleDir, "checkpoints", "summary.md")); err != nil {
		t.Errorf("fail-open quarantined the file: %v", err)
	}
}

// A tool that plants a link in checkpoints/ gets neither its target signed
// nor the target moved: the link itself is quarantined.
func TestCheckpointPlantedLinkNotSigned(t *testing.T) {
	home := t.TempDir()
	s := staged(t)
	cp := filepath.Join(s.AccessibleDir, "checkpoints")
	os.MkdirAll(cp, 0o755)
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("not yours"), 0o600)
	if err := os.Symlink(secret, filepath.Join(cp, "summary.md")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	startRuntime(t, Options{Staged: s, Home: home}).SessionEnd(ctx, agentSessionEnd())
	if _, err := os.Lstat(filepath.Join(cp, "summary.md.sig")); !os.IsNotExist(err) {
		t.Fatalf("a planted link was signed (%v)", err)
	}
	startRuntime(t, Options{Staged: s, Home: home}).SessionStart(ctx, sessionCtx)
	if fi, err := os.Lstat(filepath.Join(cp, "summary.md.rejected")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was not quarantined as itself: %v", err)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "not yours" {
		t.Errorf("link target touched: %q, %v", b, err)
	}
}
