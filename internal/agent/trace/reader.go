package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Line is one parsed trace line: its event type, its keys in the order
// written and its fields.
type Line struct {
	Type   string
	Keys   []string
	Fields map[string]any
}

// Read parses every complete line of r. A last line without its newline
// (a write cut short) is an error, as is any line that is not an object.
func Read(r io.Reader) ([]Line, error) {
	var out []Line
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		raw, err := br.ReadBytes('\n')
		if err == io.EOF {
			if len(raw) != 0 {
				return out, fmt.Errorf("trace line %d has no newline: %q", n, raw)
			}
			return out, nil
		}
		if err != nil {
			return out, err
		}
		l, err := parseLine(raw)
		if err != nil {
			return out, fmt.Errorf("trace line %d: %w", n, err)
		}
		out = append(out, l)
	}
}

func parseLine(raw []byte) (Line, error) {
	var l Line
	if err := json.Unmarshal(raw, &l.Fields); err != nil {
		return l, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return l, err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return l, err
		}
		l.Keys = append(l.Keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return l, err
		}
	}
	l.Type, _ = l.Fields["event_type"].(string)
	return l, nil
}
