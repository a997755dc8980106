package murmurhost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CredentialEnvPatterns returns the built-in strip list, in order: these
// are removed from every subprocess environment and every guest env.allow
// set, whatever the manifest says (security.md §6). No manifest key can
// remove one.
func CredentialEnvPatterns() []string {
	return []string{
		"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GOOGLE_API_KEY", "HUGGING_FACE_HUB_TOKEN",
		"NEXUS_API_KEY", "AWS_*", "GITHUB_TOKEN", "GH_TOKEN", "DOCKER_*", "KUBECONFIG",
		"NPM_TOKEN", "PYPI_TOKEN", "CARGO_REGISTRY_TOKEN", "*_API_KEY",
	}
}

// defaultEnvBaseline is what a subprocess may inherit from the runtime's own
// environment (security.md §7 step 2).
func defaultEnvBaseline() []string {
	return []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "TEMP", "TMP", "CARGO_HOME", "RUSTUP_HOME", "TERM"}
}

// MatchEnvPattern reports whether key matches pattern: "*X*" contains,
// "*X" suffix, "X*" prefix, else equality; case-sensitive, no other glob
// syntax (security.md §6).
func MatchEnvPattern(pattern, key string) bool {
	switch {
	case len(pattern) >= 2 && strings.HasPrefix(pattern, "*") && strings.HasSuffix(pattern, "*"):
		return strings.Contains(key, pattern[1:len(pattern)-1])
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(key, pattern[1:])
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(key, pattern[:len(pattern)-1])
	}
	return key == pattern
}

// stripped reports whether key matches a built-in credential pattern or
// one of extra (capabilities.shell.strip_env).
func stripped(key string, extra []string) bool {
	for _, p := range CredentialEnvPatterns() {
		if MatchEnvPattern(p, key) {
			return true
		}
	}
	for _, p := range extra {
		if MatchEnvPattern(p, key) {
			return true
		}
	}
	return false
}

// GuestEnv is the env.allow set a WASM guest starts from: each allowed name
// the host has set, minus credentials and strip_env (security.md §8). The
// runtime's MURMUR_* pairs are appended after it by the caller, so the
// manifest cannot shadow them.
func GuestEnv(getenv func(string) (string, bool), allow, stripEnv []string) [][2]string {
	var out [][2]string
	for _, k := range allow {
		if stripped(k, stripEnv) {
			continue
		}
		if v, ok := getenv(k); ok {
			out = append(out, [2]string{k, v})
		}
	}
	return out
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
		if k != "HOME" && k != "USERPROFILE" && stripped(k, o.StripEnv) {
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
