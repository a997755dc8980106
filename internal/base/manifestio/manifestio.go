// Package manifestio reads murmur.yaml files under one size cap, for
// every package that reads one (manifest, artifact, registry, the CLI):
// artifact must not import manifest, so the cap lives below both.
package manifestio

import (
	"fmt"
	"io"
	"os"

	"github.com/mur-go/mur/internal/base/diag"
)

// MaxSize bounds every murmur.yaml mur reads, from a directory or from a
// package: parsing costs several times the text, so a 400 MB string would
// cost gigabytes. Real manifests are a few kilobytes.
const MaxSize = 1 << 20

// code is Murmur's E-IO-003, "reading a file failed".
const code = "E-IO-003"

const hint = "murmur.yaml holds configuration only: move large text (prompts, data, long descriptions) into separate files"

// SizeError is a manifest over MaxSize. Size is its size in bytes, or -1
// when only "more than MaxSize" is known (a stream read up to the cap).
type SizeError struct {
	File string
	Size int64
}

func (e *SizeError) Error() string {
	size := "over 1 MiB"
	if e.Size >= 0 {
		size = fmt.Sprintf("%d bytes, over 1 MiB", e.Size)
	}
	return diag.Format(code, fmt.Sprintf("%s is too large (%s): a manifest may be at most %d bytes", e.File, size, MaxSize),
		hint)
}

// Diagnostic returns the error code and hint.
func (e *SizeError) Diagnostic() (string, string) {
	return code, hint
}

// ReadLimited reads a whole manifest from r, refusing one over MaxSize
// after reading at most MaxSize+1 bytes. name says which file it is in the
// error; size is what a header claims (-1 if nothing does) and is refused
// before anything is read.
func ReadLimited(r io.Reader, name string, size int64) ([]byte, error) {
	if size > MaxSize {
		return nil, &SizeError{File: name, Size: size}
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxSize {
		return nil, &SizeError{File: name, Size: -1}
	}
	return data, nil
}

// ReadFile reads the manifest at path through ReadLimited; open and read
// errors are os.ReadFile's (errors.Is(err, fs.ErrNotExist) still holds).
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return ReadLimited(f, path, size)
}
