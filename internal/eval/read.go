package eval

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/diag"
)

// MaxFileBytes is the largest eval file or dataset mur eval reads: a
// session's eval.jsonl is a few lines, and a dataset a line per case.
const MaxFileBytes = 32 << 20

// readNamed reads a file the user named as a session's file is read
// (readIn, in the file's directory): its last element is not followed
// if it is a link (the user may have typed the path of a session's
// eval.jsonl, which the session could have planted), nothing but a
// regular file is opened, so a FIFO does not hang the command, and
// nothing over MaxFileBytes is read. missing is the message for a file
// that does not exist.
func readNamed(path, missing string) ([]byte, error) {
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, readError(path, missing, err)
	}
	defer root.Close()
	return readIn(root, filepath.Base(path), path, missing)
}

// readOwn reads a file of the user's own project (a dataset): through
// links, as any command reads the files it is given, but never a FIFO
// or anything else that is not a regular file, nor more than
// MaxFileBytes.
func readOwn(path, missing string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err == nil && !fi.Mode().IsRegular() {
		err = &fs.PathError{Op: "read", Path: path, Err: confined.ErrNotRegular}
	}
	if err != nil {
		return nil, readError(path, missing, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, readError(path, missing, err)
	}
	defer f.Close()
	return readBounded(path, f)
}

// readIn reads rel inside root, as confined reads it: no link followed
// at its last element, nothing outside root reached.
func readIn(root *os.Root, rel, display, missing string) ([]byte, error) {
	f, err := confined.OpenFile(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return nil, readError(display, missing, err)
	}
	defer f.Close()
	return readBounded(display, f)
}

func readBounded(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, diag.Wrap(CodeIO, err, "failed to read %s: %v", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, diag.New(CodeIO, "%s is larger than %d MiB, more than mur eval reads", name, MaxFileBytes>>20).
			WithHint("split it into smaller files")
	}
	return data, nil
}

func readError(name, missing string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return diag.Wrap(CodeNotFound, err, "%s", missing)
	}
	return diag.Wrap(CodeIO, err, "failed to read %s: %v", name, err)
}

// ReadRecords reads and decodes the eval file at path, one the user
// named.
func ReadRecords(path string) (*File, error) {
	data, err := readNamed(path, fmt.Sprintf("eval file not found: %s", path))
	if err != nil {
		return nil, err
	}
	return ParseRecords(path, data)
}
