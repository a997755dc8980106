package policy

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// CodeInterpreted is E-CAP-006: a shell.allow script the sealed root
// cannot reach.
const CodeInterpreted diag.Code = "E-CAP-006"

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
		script := LookPath(name, pathEnv)
		interp := scriptInterpreter(script, pathEnv)
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

// scriptInterpreter is the interpreter a #! file names, `env NAME`
// resolved one level on pathEnv (NAME itself if unresolved); "" for
// anything else.
func scriptInterpreter(path, pathEnv string) string {
	sb, ok := ReadShebang(path, pathEnv)
	switch {
	case path == "" || !ok:
		return ""
	case sb.EnvPath != "":
		return sb.EnvPath
	case sb.EnvName != "":
		return sb.EnvName
	}
	return sb.Interp
}
