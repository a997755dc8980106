package testguest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// CacheDir is the compilation cache every test engine shares:
// <module root>/.cache/test-wasm/<key>, git-ignored and created on demand.
// One directory for the whole module means a guest is compiled once per
// `go test ./...` run (and kept for the next), not once per package, and no
// test touches the user's cache.
//
// wazero keys each entry by module hash and CPU features, and by its own
// version only where the binary records its dependencies, which test
// binaries do not (it reads "dev" there). The key, a hash of go.mod and
// go.sum, stands in for that version: a dependency change starts a fresh
// cache rather than loading code compiled by another wazero.
//
// Test binaries run concurrently may share the directory: wazero writes
// each entry to a temporary file renamed into place, so a reader sees a
// whole entry or none.
func CacheDir() (string, error) {
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(ModuleRoot(), name))
		if err != nil {
			return "", fmt.Errorf("test compilation cache key: %w", err)
		}
		h.Write(b)
	}
	dir := filepath.Join(ModuleRoot(), ".cache", "test-wasm", hex.EncodeToString(h.Sum(nil))[:16])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("test compilation cache: %w", err)
	}
	return dir, nil
}
