package stage

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/confined"
)

// A tool that replaced out/result.txt with a link to a file outside the
// session cannot make the runtime write there.
func TestWriteResultRefusesAPlantedLink(t *testing.T) {
	dir := t.TempDir()
	s := &Session{SessionDir: filepath.Join(dir, "ses"), OutDir: filepath.Join(dir, "ses", "out")}
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
