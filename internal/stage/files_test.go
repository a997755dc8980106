package stage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/redact"
)

// A tool that replaced out/result.txt with a link to a file outside the
// session cannot make the runtime write there.
func TestWriteResultRefusesAPlantedLink(t *testing.T) {
	dir := t.TempDir()
	s := NewWorkdir(filepath.Join(dir, "ses"), filepath.Join(dir, "ses"), nil)
	if err := os.Mkdir(s.SessionDir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside.txt")
	if err := os.WriteFile(outside, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteResult("first\n"); err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(s.OutDir, ResultFile)
	if b, _ := os.ReadFile(result); string(b) != "first\n" {
		t.Fatalf("result.txt = %q", b)
	}
	if err := os.Remove(result); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, result); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteResult("error: cancelled\n"); !errors.Is(err, confined.ErrSymlink) {
		t.Fatalf("write through a planted link: err = %v, want ErrSymlink", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Fatalf("the file outside was written: %q", b)
	}
}

// What the runtime writes to the session dir (results, hook logs,
// bootstrap lines, history) carries no secret of the session; staging
// puts inference.api_key among them.
func TestSessionFilesAreRedacted(t *testing.T) {
	dir := t.TempDir()
	s := NewWorkdir(dir, dir, redact.New("sk-staged"))
	if err := s.WriteResult("the answer is sk-staged"); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "logs", "hook-h.log")
	if err := s.WriteSessionFile(log, []byte("hook saw sk-staged\n"), os.O_CREATE|os.O_APPEND); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{filepath.Join(s.OutDir, ResultFile): "the answer is [REDACTED]", log: "hook saw [REDACTED]\n"} {
		if b, _ := os.ReadFile(path); string(b) != want {
			t.Errorf("%s = %q, want %q", filepath.Base(path), b, want)
		}
	}
}

// Staging puts inference.api_key in the session's secrets, beside what
// the caller holds already (the A2A token), or in a set of its own.
func TestStageAddsTheAPIKey(t *testing.T) {
	yaml := strings.Replace(agentCapsule, "  model: claude-test\n", "  model: claude-test\n  api_key: sk-in-manifest\n", 1)
	for _, given := range []*redact.Redactor{nil, redact.New("a2a-token")} {
		f := newFixture(t)
		f.wasmTool(f.local, "word-count", "0.1.0", "")
		opts := f.options(f.capsule(yaml))
		opts.Secrets = given
		s, err := Stage(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if given != nil && s.Secrets() != given {
			t.Error("staging replaced the caller's redactor")
		}
		if got := s.Secrets().String("sk-in-manifest a2a-token"); !strings.HasPrefix(got, "[REDACTED] ") || (given != nil) != strings.HasSuffix(got, " [REDACTED]") {
			t.Errorf("redacted: %q", got)
		}
	}
}
