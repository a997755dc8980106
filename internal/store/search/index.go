package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// SchemaVersion is the one index schema this mur reads.
const SchemaVersion = "1"

// Entry is one artifact of an index: artifacts-index.json's entry, or a
// store's metadata in the same shape.
type Entry struct {
	Name, Version, Runtime string
	Description            *string // nil: the index gives none
	Tags, Platforms        []string
}

// Decode reads an artifacts-index.json document as Murmur's serde types
// read it: keys matched exactly and never repeated, schema_version,
// updated_at and artifacts required, each entry's name, version and
// runtime required strings, description a string or null, tags and
// platforms arrays of strings when present; unknown keys are skipped, as
// serde skips them. A schema version other than "1" is reported before
// the rest is read, so a newer index says it is newer rather than
// malformed. from names the document in errors.
func Decode(data []byte, from string) ([]Entry, error) {
	if !utf8.Valid(data) {
		return nil, parseError(from, errors.New("the document is not valid UTF-8"))
	}
	top, err := object(data)
	if err != nil {
		return nil, parseError(from, err)
	}
	version, err := top.str("schema_version")
	if err != nil {
		return nil, parseError(from, err)
	}
	if version != SchemaVersion {
		return nil, schemaError(from, version)
	}
	if _, err := top.str("updated_at"); err != nil {
		return nil, parseError(from, err)
	}
	raws, err := top.array("artifacts")
	if err != nil {
		return nil, parseError(from, err)
	}
	entries := make([]Entry, 0, len(raws))
	for i, raw := range raws {
		e, err := entry(raw)
		if err != nil {
			return nil, parseError(from, fmt.Errorf("artifacts[%d]: %w", i, err))
		}
		entries = append(entries, e)
	}
	return entries, nil
}

func entry(raw json.RawMessage) (Entry, error) {
	o, err := object(raw)
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if e.Name, err = o.str("name"); err != nil {
		return Entry{}, err
	}
	if e.Version, err = o.str("version"); err != nil {
		return Entry{}, err
	}
	if e.Runtime, err = o.str("runtime"); err != nil {
		return Entry{}, err
	}
	if raw, ok := o.vals["description"]; ok && !isNull(raw) {
		d, err := stringValue("description", raw)
		if err != nil {
			return Entry{}, err
		}
		e.Description = &d
	}
	if e.Tags, err = o.strings("tags"); err != nil {
		return Entry{}, err
	}
	if e.Platforms, err = o.strings("platforms"); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// fields is one JSON object: its values kept raw, by exact key.
type fields struct{ vals map[string]json.RawMessage }

// object reads one JSON object and nothing after it. encoding/json would
// match keys case-insensitively and keep the last of a repeated key;
// serde does neither.
func object(data []byte) (fields, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return fields{}, jsonError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fields{}, fmt.Errorf("expected an object, found %s", kindOf(data))
	}
	o := fields{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fields{}, jsonError(err)
		}
		key := tok.(string) // inside an object, Token yields keys as strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fields{}, jsonError(err)
		}
		if _, dup := o.vals[key]; dup {
			return fields{}, fmt.Errorf("duplicate field %q", key)
		}
		o.vals[key] = raw
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return fields{}, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fields{}, errors.New("trailing characters after the JSON object")
	}
	return o, nil
}

// str is a required string field.
func (o fields) str(key string) (string, error) {
	raw, ok := o.vals[key]
	if !ok {
		return "", fmt.Errorf("missing field %q", key)
	}
	return stringValue(key, raw)
}

// array is a required array field, its elements kept raw.
func (o fields) array(key string) ([]json.RawMessage, error) {
	raw, ok := o.vals[key]
	if !ok {
		return nil, fmt.Errorf("missing field %q", key)
	}
	if firstByte(raw) != '[' {
		return nil, fmt.Errorf("field %q: expected an array, found %s", key, kindOf(raw))
	}
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("field %q: %w", key, jsonError(err))
	}
	return out, nil
}

// strings is an array of strings that defaults to empty when absent
// (serde's default); null is refused, as serde refuses it.
func (o fields) strings(key string) ([]string, error) {
	if _, ok := o.vals[key]; !ok {
		return []string{}, nil
	}
	raws, err := o.array(key)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(raws))
	for i, raw := range raws {
		s, err := stringValue(fmt.Sprintf("%s[%d]", key, i), raw)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func stringValue(key string, raw json.RawMessage) (string, error) {
	if firstByte(raw) != '"' {
		return "", fmt.Errorf("field %q: expected a string, found %s", key, kindOf(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q: %w", key, jsonError(err))
	}
	return s, nil
}

// jsonError is a decoding failure in words that do not depend on
// encoding/json's internals.
func jsonError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the JSON document ends early")
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("not valid JSON at byte %d: %s", syn.Offset, syn.Error())
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

// kindOf names what a raw value is, for errors, without quoting it.
func kindOf(raw []byte) string {
	switch firstByte(raw) {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func firstByte(raw []byte) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func isNull(raw json.RawMessage) bool { return firstByte(raw) == 'n' }
