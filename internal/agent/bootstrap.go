package agent

import (
	"bytes"
	"encoding/json"
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
