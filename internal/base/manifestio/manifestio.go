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

// CodeTooLarge is Murmur's E-IO-003, "reading a file failed".
const CodeTooLarge diag.Code = "E-IO-003"

const hint = "murmur.yaml holds configuration only: move large text (prompts, data, long descriptions) into separate files"

// SizeError is the cause of TooLarge's error, which is the only way to
// make one (so a refusal always carries its code): which manifest, and its
// size. A caller that knows the file by a better name finds it with
// errors.As and reports TooLarge again under that name.
type SizeError struct {
	file string
	size int64
}

func (e *SizeError) Error() string {
	size := "over 1 MiB"
	if e.size >= 0 {
		size = fmt.Sprintf("%d bytes, over 1 MiB", e.size)
	}
	return fmt.Sprintf("%s is too large (%s): a manifest may be at most %d bytes", e.file, size, MaxSize)
}

// Size is the manifest's size in bytes, or -1 when only "more than
// MaxSize" is known (a stream read up to the cap).
func (e *SizeError) Size() int64 { return e.size }

// TooLarge is the refusal of the manifest file, size bytes long (-1:
// more than MaxSize).
func TooLarge(file string, size int64) *diag.Error {
	se := &SizeError{file: file, size: size}
	return diag.Wrap(CodeTooLarge, se, "%s", se.Error()).WithHint(hint)
}

// ReadLimited reads a whole manifest from r, refusing one over MaxSize
// after reading at most MaxSize+1 bytes. name says which file it is in the
// error; size is what a header claims (-1 if nothing does) and is refused
// before anything is read.
func ReadLimited(r io.Reader, name string, size int64) ([]byte, error) {
	if size > MaxSize {
		return nil, TooLarge(name, size)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxSize {
		return nil, TooLarge(name, -1)
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
