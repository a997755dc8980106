package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOversizedManifestIsRefused(t *testing.T) {
	big := "name: demo\nversion: \"0.1.0\"\ndescription: " + strings.Repeat("x", MaxSize) + "\n"
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]func() error{
		"Parse": func() error { _, _, err := Parse([]byte(big), "", ParseOptions{}); return err },
		"Load":  func() error { _, _, err := Load(path, nil); return err },
	} {
		var se *SizeError
		if err := load(); !errors.As(err, &se) || se.Size() != int64(len(big)) || !strings.Contains(err.Error(), "over 1 MiB") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
