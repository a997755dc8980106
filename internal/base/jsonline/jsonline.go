// Package jsonline writes JSON the way mur's records are written: no HTML
// escaping (a tool's "<" stays "<"), one value per line, each line one
// write(2) with the session's secrets redacted.
package jsonline

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"

	"github.com/mur-go/mur/internal/base/redact"
)

// keepBuf bounds the encoding buffer kept between lines: a rare huge line
// (a tool's whole output) is not held for the rest of the session.
const keepBuf = 64 << 10

// File appends lines to one open file. Every Write is one write(2) of a
// whole line straight to the file, with no buffer in this process: a line
// is in the file once Write returns, and a crash loses only lines not yet
// written. Not safe for concurrent use: its owner holds its own lock,
// which also orders what it adds around each line.
type File struct {
	f       *os.File
	secrets *redact.Redactor
	// buf and enc are reused: an encoder and buffer per line were a tenth
	// of a served capsule's allocations.
	buf bytes.Buffer
	enc *json.Encoder
}

// New writes to f, redacting secrets (nil: none) from every encoded line,
// which covers every field of every record type, present and to come.
func New(f *os.File, secrets *redact.Redactor) *File {
	w := &File{f: f, secrets: secrets}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	return w
}

// Write appends v as one line.
func (w *File) Write(v any) error {
	w.buf.Reset()
	defer func() {
		if w.buf.Cap() > keepBuf {
			w.buf = bytes.Buffer{}
		}
	}()
	if err := w.enc.Encode(v); err != nil {
		return err
	}
	_, err := w.f.Write(w.secrets.Bytes(w.buf.Bytes()))
	return err
}

// Close syncs and closes the file, reporting the first failure.
func (w *File) Close() error {
	serr := w.f.Sync()
	if err := w.f.Close(); err != nil {
		return err
	}
	return serr
}

// Compact is v as compact JSON without HTML escaping, the form a tool's
// input takes in dispatch and in the trace.
func Compact(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}
