package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
)

// ErrBinaryChanged is wrapped by the ToolFailed error of a native tool
// whose binary on disk no longer has the digest staging recorded.
var ErrBinaryChanged = errors.New("native tool binary changed since staging")

// pinnedBinary is a native tool binary that matched its staged digest,
// ready to exec: Path, or, when File is set, that file passed to the child
// as fd 3 and executed as /proc/self/fd/3.
type pinnedBinary struct {
	Path string
	File *os.File
}

func (p pinnedBinary) Close() {
	if p.File != nil {
		p.File.Close()
	}
}

// checkDigest compares a hash with the staged hex digest.
func checkDigest(name, path, want string, h hash.Hash) error {
	got := hex.EncodeToString(h.Sum(nil))
	if got == want {
		return nil
	}
	return errFailed(name, fmt.Sprintf("native tool '%s' was not run: its binary %s changed since staging (sha256 %s, staged %s); nothing in tools/ may be modified while a session runs, start a new session with `mur run`",
		name, path, got, want), ErrBinaryChanged)
}

// hashFile reads f to the end into w (if not nil) and returns its sha256.
func hashFile(f *os.File, w io.Writer) (hash.Hash, error) {
	h := sha256.New()
	dst := io.Writer(h)
	if w != nil {
		dst = io.MultiWriter(h, w)
	}
	if _, err := io.Copy(dst, f); err != nil {
		return nil, err
	}
	return h, nil
}
