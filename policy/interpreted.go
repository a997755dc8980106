package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/diag"
	"github.com/mur-go/mur/manifest"
)

// CodeInterpreted is E-CAP-006: a shell.allow script the sealed root
// cannot reach.
const CodeInterpreted = "E-CAP-006"

// ErrInterpreted is wrapped by every E-CAP-006 refusal.
var ErrInterpreted = errors.New("interpreted entrypoint unreachable under sealed")

// sealedRuntimePaths are the trees every sealed root binds (§10.3).
func sealedRuntimePaths() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}
}

// CheckInterpreted is §10.2 step 4 (E-CAP-006): under a sealed floor, a
// shell.allow entry whose first match on pathEnv is a #! script (one
// `env NAME` level resolved) is refused unless the script lies under a
// fixed sealed runtime path or a declared grant directory, or a grant
// names the entry or its interpreter.
func CheckInterpreted(c *manifest.Capabilities, floor Class, pathEnv string) error {
	if floor != Sealed || c == nil || c.Shell == nil {
		return nil
	}
	var dirs, named []string
	for _, g := range c.Shell.InterpreterRuntime {
		named = append(named, g.Binary)
		for _, d := range g.Dirs {
			dirs = append(dirs, d.Path)
		}
	}
	for _, g := range c.Shell.StagedRuntime {
		named, dirs = append(named, g.Binary), append(dirs, g.SourcePath)
	}
	for _, name := range c.Shell.Allow {
		script := firstOnPath(name, pathEnv)
		interp := shebangOf(script, pathEnv)
		if interp == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(script); err == nil {
			script = real
		}
		within := func(roots []string) bool {
			return slices.ContainsFunc(roots, func(d string) bool { return script == d || strings.HasPrefix(script, strings.TrimSuffix(d, "/")+"/") })
		}
		if within(sealedRuntimePaths()) || within(dirs) || slices.Contains(named, name) || slices.Contains(named, filepath.Base(interp)) {
			continue
		}
		return &diag.Error{Code: CodeInterpreted, Err: ErrInterpreted,
			Msg: fmt.Sprintf("capabilities.shell.allow entry '%s' resolves to the script %s (interpreter %s), which the sealed root cannot reach: it is outside the system directories and every declared grant",
				name, script, interp),
			Hint: fmt.Sprintf("grant its directory or its interpreter with capabilities.shell.interpreter_runtime or staged_runtime for '%s', or lower the declared floor to 'scoped'", name)}
	}
	return nil
}

// firstOnPath is the first executable regular file named name on
// pathEnv ("" if none); a name with a slash is itself.
func firstOnPath(name, pathEnv string) string {
	cands := []string{name}
	if !strings.Contains(name, "/") {
		cands = nil
		for _, d := range filepath.SplitList(pathEnv) {
			if filepath.IsAbs(d) {
				cands = append(cands, filepath.Join(d, name))
			}
		}
	}
	for _, p := range cands {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// shebangOf is the interpreter a #! file names in its first 512 bytes,
// `env NAME` resolved one level on pathEnv; "" for anything else.
func shebangOf(path, pathEnv string) string {
	if path == "" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	if !bytes.HasPrefix(head[:n], []byte("#!")) {
		return ""
	}
	line, _, _ := bytes.Cut(head[2:n], []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) == "env" && len(fields) > 1 {
		if p := firstOnPath(fields[1], pathEnv); p != "" {
			return p
		}
		return fields[1]
	}
	return fields[0]
}
