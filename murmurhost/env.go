package murmurhost

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/policy"
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
	home := filepath.Join(o.Workdir, ".capsule-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create synthetic home directory %s: %w", home, err)
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
