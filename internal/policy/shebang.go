package policy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// LookPath is the first executable regular file named name in pathEnv's
// absolute directories ("" if none); a name with a slash is itself, if
// executable. Relative entries are skipped: they would resolve against
// whatever the runtime's working directory is, which no grant may name.
func LookPath(name, pathEnv string) string {
	if strings.Contains(name, "/") {
		if IsExecutable(name) {
			return name
		}
		return ""
	}
	for _, d := range filepath.SplitList(pathEnv) {
		if !filepath.IsAbs(d) {
			continue
		}
		if p := filepath.Join(d, name); IsExecutable(p) {
			return p
		}
	}
	return ""
}

// IsExecutable reports a regular file with an execute bit.
func IsExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Shebang is the #! line of a script (its first 512 bytes): the
// interpreter it names and, for `#!…/env NAME`, that NAME and its first
// match on PATH ("" if none).
type Shebang struct {
	Interp, EnvName, EnvPath string
}

// ReadShebang reads path's #! line; ok is false for anything that is not
// a readable script with an interpreter.
func ReadShebang(path, pathEnv string) (s Shebang, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return s, false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	if !bytes.HasPrefix(head[:n], []byte("#!")) {
		return s, false
	}
	line, _, _ := bytes.Cut(head[2:n], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return s, false
	}
	s.Interp = fields[0]
	if filepath.Base(fields[0]) == "env" && len(fields) > 1 {
		s.EnvName = fields[1]
		s.EnvPath = LookPath(fields[1], pathEnv)
	}
	return s, true
}
