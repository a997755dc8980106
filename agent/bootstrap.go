package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/confined"
	"github.com/mur-go/mur/stage"
)

// logInventory appends the pretty-printed inventory to logs/bootstrap.log
// at the attempt's start (session.md §2.3), confined like out/result.txt.
func logInventory(s *stage.Session, inv []any) error {
	var b bytes.Buffer
	b.WriteString("Installed tools (JSON):\n")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(inv); err != nil {
		return err
	}
	rel, err := filepath.Rel(s.SessionDir, filepath.Join(s.LogsDir, stage.BootstrapLog))
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
	return confined.WriteFile(root, rel, b.Bytes(), 0o644, os.O_CREATE|os.O_APPEND)
}
