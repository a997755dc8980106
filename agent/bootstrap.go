package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/stage"
)

// logInventory appends the pretty-printed inventory to logs/bootstrap.log
// at the attempt's start (session.md §2.3).
func logInventory(s *stage.Session, inv []any) error {
	var b bytes.Buffer
	b.WriteString("Installed tools (JSON):\n")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(inv); err != nil {
		return err
	}
	return s.WriteSessionFile(filepath.Join(s.LogsDir, stage.BootstrapLog), b.Bytes(), os.O_CREATE|os.O_APPEND)
}
