package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/policy"
)

// defaultEnvBaseline is what a subprocess may inherit from the runtime's own
// environment (security.md §7 step 2).
func defaultEnvBaseline() []string {
	return []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "CARGO_HOME", "RUSTUP_HOME", "TERM"}
}

// SubprocessEnv describes the environment of a native subprocess.
type SubprocessEnv struct {
	// Getenv reads the runtime's own environment; nil means os.LookupEnv.
	Getenv func(string) (string, bool)
	// BaselineEnv is capabilities.shell.baseline_env: exact names copied
	// from the runtime's environment.
	BaselineEnv []string
	// StripEnv is capabilities.shell.strip_env, applied after the built-in
	// credential patterns.
	StripEnv []string
	// Overrides are runtime pairs (shell tools on the agent path); native
	// tools get none.
	Overrides [][2]string
	// Workdir is the accessible workdir; HOME is Workdir/.capsule-home.
	Workdir string
}

// Build returns the environment as KEY=VALUE strings, in security.md §7's
// order: start empty, copy the default baseline and baseline_env, add
// overrides, strip credentials, then force HOME and USERPROFILE to a
// synthetic home inside the workdir (created here). The host environment is
// never inherited beyond that.
func (o SubprocessEnv) Build() ([]string, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.LookupEnv
	}
	var keys []string
	vals := map[string]string{}
	set := func(k, v string) {
		if _, ok := vals[k]; !ok {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	for _, k := range defaultEnvBaseline() {
		if v, ok := getenv(k); ok {
			set(k, v)
		}
	}
	for _, kv := range o.Overrides {
		set(kv[0], kv[1])
	}
	for _, k := range o.BaselineEnv {
		if v, ok := getenv(k); ok {
			set(k, v)
		}
	}
	home, err := syntheticHome(o.Workdir)
	if err != nil {
		return nil, err
	}
	set("HOME", home)
	set("USERPROFILE", home)
	env := make([]string, 0, len(keys))
	for _, k := range keys {
		if k != "HOME" && k != "USERPROFILE" && policy.Stripped(k, o.StripEnv) {
			continue
		}
		env = append(env, k+"="+vals[k])
	}
	return env, nil
}

// syntheticHome creates Workdir/.capsule-home, refusing a link in its
// place: a guest of an earlier session in a reused --workdir could have
// pointed it at the user's real home for the tools to write into.
func syntheticHome(workdir string) (string, error) {
	home := filepath.Join(workdir, ".capsule-home")
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("failed to create synthetic home directory %s: %w", home, err)
	}
	if err := os.MkdirAll(workdir, 0o755); err != nil {
		return fail(err)
	}
	root, err := os.OpenRoot(workdir)
	if err != nil {
		return fail(err)
	}
	defer root.Close()
	if err := root.Mkdir(".capsule-home", 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fail(err)
	}
	if fi, err := root.Lstat(".capsule-home"); err != nil {
		return fail(err)
	} else if !fi.IsDir() {
		return fail(fmt.Errorf("it is a %s, not a directory (remove it)", fileKind(fi.Mode())))
	}
	return home, nil
}

func fileKind(m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		return "symbolic link"
	}
	return "file"
}
