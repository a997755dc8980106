//go:build !unix

package running

import (
	"io"
	"os"
	"path/filepath"
)

// openOwnDir opens dir; without Unix owners there is nothing to check.
func openOwnDir(dir string) (*os.File, error) { return os.Open(dir) }

// readOwnFile reads name in dir, at most max bytes.
func readOwnFile(dir *os.File, name string, max int64) ([]byte, error) {
	f, err := os.Open(filepath.Join(dir.Name(), name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}
