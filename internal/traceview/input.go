package traceview

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Limits of a tool call's input as shown, in characters.
const (
	inlineLimit  = 120 // `trace show`: the input as JSON
	summaryLimit = 60  // `trace steps --verbose`: its first string
)

// pathFields are the keys (matched without regard to case) under which a
// tool's input conventionally names the resource it addresses: where the
// address lives, never which tool is calling.
var pathFields = []string{"path", "file", "file_path", "filepath", "filename"}

// input is what the trace commands keep of a tool call's input.
type input struct {
	inline  string // compact JSON, keys sorted, cut to inlineLimit with "…"
	summary string // its first string, quoted, cut to summaryLimit with "…"; "" when none
	path    string // the resource a path field names; "" when none
	hasPath bool
}

// readInput decodes raw (a JSON value) as Murmur shows it: its keys
// sorted at every level (serde_json's map), numbers as written.
func readInput(raw json.RawMessage) (input, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return input{}, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return input{}, err
	}
	in := input{inline: clean(cut(strings.TrimSuffix(b.String(), "\n"), inlineLimit))}
	if s, ok := firstString(v); ok {
		in.summary = clean(`"` + cut(s, summaryLimit) + `"`)
	}
	in.path, in.hasPath = trackedPath(v)
	return in, nil
}

// cut is s cut to n characters, with "…" when something was cut.
func cut(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// firstString is the first string value in v, depth first, an object's
// values in the order of their keys.
func firstString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if s, ok := firstString(v[k]); ok {
				return s, true
			}
		}
	case []any:
		for _, e := range v {
			if s, ok := firstString(e); ok {
				return s, true
			}
		}
	}
	return "", false
}

// trackedPath is the string under the first of pathFields that v, an
// object, has at its top level; keys that differ only in case are
// tried in sorted order.
func trackedPath(v any) (string, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	keys := slices.Sorted(maps.Keys(obj))
	for _, f := range pathFields {
		for _, k := range keys {
			if s, ok := obj[k].(string); ok && strings.ToLower(k) == f {
				return s, true
			}
		}
	}
	return "", false
}
