package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// object is one JSONL line decoded as Murmur's serde types read it: a
// JSON object whose keys are matched exactly (encoding/json would match
// them case-insensitively) and may not repeat; each value kept raw, to
// be checked against the type its field has.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func readObject(line string) (object, error) {
	dec := json.NewDecoder(strings.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return object{}, jsonError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return object{}, fmt.Errorf("expected a JSON object, found %s", kindOfToken(tok))
	}
	o := object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return object{}, jsonError(err)
		}
		key := tok.(string) // inside an object, Token yields keys as strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return object{}, jsonError(err)
		}
		if _, dup := o.vals[key]; dup {
			return object{}, fmt.Errorf("duplicate field %q", key)
		}
		o.keys = append(o.keys, key)
		o.vals[key] = raw
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return object{}, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return object{}, errors.New("trailing characters after the JSON object")
	}
	return o, nil
}

// jsonError is a decoding failure in words that do not depend on
// encoding/json's internals.
func jsonError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the JSON object ends early")
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("not valid JSON at column %d: %s", syn.Offset, syn.Error())
	}
	return fmt.Errorf("not valid JSON: %v", err)
}

func kindOfToken(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
}

// kindOf names what a raw value is, for errors.
func kindOf(raw json.RawMessage) string {
	switch c := firstByte(raw); {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return "the number " + string(raw)
}

func firstByte(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func isNull(raw json.RawMessage) bool { return firstByte(raw) == 'n' }

// str is a required string field.
func (o object) str(key string) (string, error) {
	raw, ok := o.vals[key]
	if !ok {
		return "", fmt.Errorf("missing field %q", key)
	}
	return stringValue(key, raw)
}

// optStr is an optional string field: absent or null is nil.
func (o object) optStr(key string) (*string, error) {
	raw, ok := o.vals[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	s, err := stringValue(key, raw)
	return &s, err
}

func stringValue(key string, raw json.RawMessage) (string, error) {
	if firstByte(raw) != '"' {
		return "", fmt.Errorf("field %q: expected a string, found %s", key, kindOf(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("field %q: %v", key, err)
	}
	return s, nil
}

// uint is a required unsigned integer field of at most bits bits,
// written as an integer (serde reads 1.0 or 1e3 as a float, and refuses
// it for an integer field).
func (o object) uint(key string, bits int) (uint64, error) {
	raw, ok := o.vals[key]
	if !ok {
		return 0, fmt.Errorf("missing field %q", key)
	}
	n, err := strconv.ParseUint(string(raw), 10, bits)
	if err != nil {
		return 0, fmt.Errorf("field %q: expected an unsigned %d-bit integer, found %s", key, bits, kindOf(raw))
	}
	return n, nil
}

// optFloat is an optional number field: absent or null is nil.
func (o object) optFloat(key string) (*float64, error) {
	raw, ok := o.vals[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	f, err := floatValue(key, raw)
	return &f, err
}

func floatValue(key string, raw json.RawMessage) (float64, error) {
	c := firstByte(raw)
	if c != '-' && (c < '0' || c > '9') {
		return 0, fmt.Errorf("field %q: expected a number, found %s", key, kindOf(raw))
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, fmt.Errorf("field %q: the number %s is out of range", key, raw)
	}
	return f, nil
}

// floatMap is a required object field of numbers (a repeated key keeps
// its last value, as serde's map does).
func (o object) floatMap(key string) (map[string]float64, error) {
	raw, ok := o.vals[key]
	if !ok {
		return nil, fmt.Errorf("missing field %q", key)
	}
	if firstByte(raw) != '{' {
		return nil, fmt.Errorf("field %q: expected an object, found %s", key, kindOf(raw))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("field %q: %v", key, err)
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		f, err := floatValue(key+"."+k, v)
		if err != nil {
			return nil, err
		}
		out[k] = f
	}
	return out, nil
}
