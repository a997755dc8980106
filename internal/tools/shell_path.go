package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// errNotOnPath is wrapped when a shell binary is found in no PATH entry.
var errNotOnPath = errors.New("not found on PATH")

// lookPath finds binary the way the host's PATH lookup does, in the PATH
// the subprocess gets (pathList): the first regular, executable file
// dir/binary. A name containing a separator is used as it is (relative
// to the working directory). Relative PATH entries are skipped: "." in
// PATH would otherwise run whatever a guest wrote into the workdir.
// It returns the path to exec and, for the trace, its canonical form.
func lookPath(binary, pathList string) (exe, canonical string, err error) {
	if strings.ContainsRune(binary, '/') || strings.ContainsRune(binary, filepath.Separator) {
		return binary, binary, nil
	}
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, binary)
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
			continue
		}
		canonical, err := filepath.EvalSymlinks(p)
		if err != nil {
			canonical = p
		}
		return p, canonical, nil
	}
	return "", binary, fmt.Errorf("%s: %w (%s)", binary, errNotOnPath, pathList)
}

// envValue is key's value in a KEY=VALUE environment ("" if absent).
func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}
