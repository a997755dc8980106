//go:build !linux

package tools

import (
	"fmt"
	"os"
)

// pinBinary checks path against the staged digest. Without memfds the
// child executes the path itself, so a writer racing between this check
// and exec is not excluded here; WASM guests cannot reach tools/ at all
// (it is hidden from their preopens), which leaves only host processes.
func pinBinary(name, path, want string) (pinnedBinary, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return pinnedBinary{}, errFailed(name, fmt.Sprintf("native tool '%s' was not run: %s is missing or not a regular file", name, path), ErrBinaryChanged)
	}
	f, err := os.Open(path)
	if err != nil {
		return pinnedBinary{}, errFailed(name, fmt.Sprintf("failed to spawn native tool '%s': %v", name, err), err)
	}
	defer f.Close()
	h, err := hashFile(f, nil)
	if err != nil {
		return pinnedBinary{}, errFailed(name, fmt.Sprintf("failed to read native tool '%s': %v", name, err), err)
	}
	if err := checkDigest(name, path, want, h); err != nil {
		return pinnedBinary{}, err
	}
	return pinnedBinary{Path: path}, nil
}
