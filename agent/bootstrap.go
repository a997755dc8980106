package agent

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/stage"
)

// inventoryLog is the pretty-printed inventory logs/bootstrap.log gets at
// every attempt's start (session.md §2.3), encoded once: the inventory is
// the session's, and a served capsule starts an attempt for every task.
func inventoryLog(inv []any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("Installed tools (JSON):\n")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(inv); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// logInventory appends the inventory log to logs/bootstrap.log at the
// attempt's start.
func (l *launch) logInventory() error {
	return l.s.WriteSessionFile(filepath.Join(l.s.LogsDir, stage.BootstrapLog), l.invLog, os.O_CREATE|os.O_APPEND)
}
