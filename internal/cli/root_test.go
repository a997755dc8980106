package cli

import (
	"strings"
	"testing"
)

func TestHelp(t *testing.T) {
	for _, args := range [][]string{nil, {"--help"}, {"help"}} {
		o := mur(t, args...)
		o.want(t, 0, "mur-go", "")
		for _, s := range []string{"wasm ", "version ", "run ", "install ", "mur completion bash", "Examples:", "MUR_CACHE_DIR", "--log-level", "Exit status"} {
			if !strings.Contains(o.stdout, s) {
				t.Errorf("mur %v: help lacks %q:\n%s", args, s, o.stdout)
			}
		}
		// Words from when parts were missing: the help says what is there.
		for _, stale := range []string{"being built", "first slice"} {
			if strings.Contains(o.stdout, stale) {
				t.Errorf("mur %v: help still says %q:\n%s", args, stale, o.stdout)
			}
		}
	}
}

func TestCompletion(t *testing.T) {
	for _, tc := range []struct{ shell, want string }{
		{"bash", "# bash completion V2 for mur"},
		{"zsh", "#compdef mur"},
		{"fish", "# fish completion for mur"},
	} {
		mur(t, "completion", tc.shell).want(t, 0, tc.want, "")
	}
	// What the scripts ask mur at a TAB: subcommands, then flags.
	mur(t, "__complete", "wasm", "").want(t, 0, "run\t", "")
	mur(t, "__complete", "run", "--man").want(t, 0, "--manifest\t", "")
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"fly"}, "mur: unknown command \"fly\" for \"mur\"\nRun 'mur --help' for usage.\n"},
		{[]string{"wasm", "insect"}, "mur: unknown command \"insect\" for \"mur wasm\"; did you mean inspect?\n"},
		{[]string{"version", "now"}, "mur: unexpected argument \"now\"\nRun 'mur version --help' for usage.\n"},
		{[]string{"--log-level", "loud", "version"}, `mur: invalid argument "loud" for "--log-level" flag: want debug, info, warn or error, got "loud"`},
		{[]string{"wasm", "inspect"}, "mur: missing FILE\nRun 'mur wasm inspect --help' for usage.\n"},
		{[]string{"wasm", "call", "x.wasm"}, "mur: missing EXPORT\n"},
		{[]string{"wasm", "call", "--bogus"}, "mur: unknown flag: --bogus\n"},
		{[]string{"wasm", "call", "x.wasm", "f", "--deadline", "-1"}, "mur: --deadline must be a number of seconds"},
		{[]string{"wasm", "call", "x.wasm", "f", "--deadline", "NaN"}, "mur: --deadline must be a number of seconds"},
		{[]string{"wasm", "call", "x.wasm", "f", "--deadline", "1e10"}, "mur: --deadline must be a number of seconds"},
		{[]string{"wasm", "call", "x.wasm", "f", "--max-memory", "17592186044416"}, "mur: --max-memory 17592186044416 MiB is too large"},
		{[]string{"wasm", "call", "x.wasm", "f", "--args", "[1,"}, "mur: --args is not valid JSON"},
	} {
		o := mur(t, tc.args...)
		if o.code != 2 || !strings.HasPrefix(o.stderr, "mur: ") || !strings.Contains(o.stderr, tc.stderr) || o.stdout != "" {
			t.Errorf("mur %v: exit %d, stdout %q, stderr %q; want exit 2, stderr containing %q",
				tc.args, o.code, o.stdout, o.stderr, tc.stderr)
		}
	}
}

func TestGroupWithoutSubcommandShowsHelp(t *testing.T) {
	mur(t, "wasm").want(t, 0, "Available Commands:\n  call", "")
}
