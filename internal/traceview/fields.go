package traceview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// object is one line's top-level keys as written. Murmur's reader
// matches a field by its exact name; encoding/json would fold case and
// take "Status" for "status".
type object map[string]json.RawMessage

// presence is what a field's absence or null means, as in Murmur's
// record types: a required field must be there and not null, a
// defaulted one may be absent (not null), an optional one may be either.
type presence int

const (
	required presence = iota
	defaulted
	optional
)

// field decodes o[key] into a T. It reports whether the field had a
// value; an absent or null field that p allows is T's zero value.
func field[T any](o object, key string, p presence, want string) (T, bool, error) {
	var v T
	raw, ok := o[key]
	switch {
	case !ok && p == required:
		return v, false, fmt.Errorf("missing field `%s`", key)
	case !ok:
		return v, false, nil
	case bytes.Equal(raw, []byte("null")) && p == optional:
		return v, false, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil || bytes.Equal(raw, []byte("null")) {
		return v, false, fmt.Errorf("invalid type for `%s`: %s, expected %s", key, snippet(raw), want)
	}
	return v, true, nil
}

// snippet is the start of a raw value, for an error message.
func snippet(raw json.RawMessage) string {
	const max = 40
	if utf8.RuneCount(raw) <= max {
		return clean(string(raw))
	}
	r := []rune(string(raw))
	return clean(string(r[:max])) + "…"
}

// reader decodes the fields of one record, keeping the first error so a
// record's fields read in a row and the error is checked once.
type reader struct {
	o   object
	err error
}

func (r *reader) str(key string, p presence) string {
	v, _ := get[string](r, key, p, "a string")
	return v
}

func (r *reader) optStr(key string) *string {
	v, ok := get[string](r, key, optional, "a string")
	if !ok {
		return nil
	}
	return &v
}

func (r *reader) u32(key string, p presence) uint32 {
	v, _ := get[uint32](r, key, p, "u32")
	return v
}

func (r *reader) u64(key string, p presence) uint64 {
	v, _ := get[uint64](r, key, p, "u64")
	return v
}

func (r *reader) i32(key string, p presence) (int32, bool) {
	return get[int32](r, key, p, "i32")
}

func (r *reader) boolean(key string) bool {
	v, _ := get[bool](r, key, optional, "a boolean")
	return v
}

// value is the raw JSON of an optional field, nil when absent or null.
func (r *reader) value(key string) json.RawMessage {
	v, _ := get[json.RawMessage](r, key, optional, "a JSON value")
	return v
}

func get[T any](r *reader, key string, p presence, want string) (T, bool) {
	v, ok, err := field[T](r.o, key, p, want)
	if err != nil && r.err == nil {
		r.err = err
	}
	return v, ok
}
