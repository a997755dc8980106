//go:build !unix

package mcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteTokenFile writes token, with a newline, to a new file name in dir
// (made when missing) that only this user can read, as far as this
// system's permissions say; it never replaces a file. remove deletes it.
func WriteTokenFile(dir, name, token string) (path string, remove func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("making the token directory: %w", err)
	}
	path = filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("creating the token file: %w", err)
	}
	_, werr := f.WriteString(token + "\n")
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return "", nil, fmt.Errorf("writing the token file %s: %w", path, err)
	}
	return path, func() { os.Remove(path) }, nil
}
