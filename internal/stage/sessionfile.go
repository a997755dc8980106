package stage

import (
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
)

// ResultFile is out/result.txt's name in the out dir.
const ResultFile = "result.txt"

// WriteSessionFile writes data to path, a file under the session dir,
// opened with os.O_WRONLY|flag, creating its directory. Guests and tools
// can write the session dir too, so the write stays inside it and never
// follows a link planted at path: a planted link fails the write instead.
// What the runtime writes there (results, logs, history) carries text
// from guests, so the session's secrets are redacted from data.
func (s *Session) WriteSessionFile(path string, data []byte, flag int) error {
	data = s.Secrets.Bytes(data)
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

// WriteResult replaces out/result.txt, the attempt's terminal outcome.
func (s *Session) WriteResult(text string) error {
	return s.WriteSessionFile(filepath.Join(s.OutDir, ResultFile), []byte(text), os.O_CREATE|os.O_TRUNC)
}
