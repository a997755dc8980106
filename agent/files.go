package agent

import (
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/confined"
	"github.com/mur-go/mur/stage"
)

// writeSessionFile writes data to path, a file under the session dir,
// opened with os.O_WRONLY|flag. Guests and tools can write the session
// dir too, so the write stays inside it and never follows a link planted
// at path: a planted link fails the write instead.
func writeSessionFile(s *stage.Session, path string, data []byte, flag int) error {
	rel, err := filepath.Rel(s.SessionDir, path)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(s.SessionDir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return err
	}
	return confined.WriteFile(root, rel, data, 0o644, flag)
}

// writeResult replaces out/result.txt.
func writeResult(s *stage.Session, text string) error {
	return writeSessionFile(s, filepath.Join(s.OutDir, "result.txt"), []byte(text), os.O_CREATE|os.O_TRUNC)
}
