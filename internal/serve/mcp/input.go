package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/mur-go/mur/internal/base/jsonline"
)

// objectSchema is schema when it is a JSON object of type object, which
// MCP requires of an input schema, else the schema any object satisfies.
func objectSchema(schema json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(schema, &m) == nil && m["type"] == "object" {
		return schema
	}
	return json.RawMessage(`{"type":"object"}`)
}

// CanonicalInput is a call's arguments as dispatch takes them: a JSON
// object ({} when absent), compact, keys sorted, numbers kept verbatim.
// The arguments are the client's bytes, so anything but one object is
// an error.
func CanonicalInput(args json.RawMessage) (string, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return "{}", nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", errors.New("text after the arguments object")
	}
	return jsonline.Compact(m)
}
