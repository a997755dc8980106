package cli

import (
	"strings"
	"testing"
)

// A wildcard is not rule syntax: --allow-net refuses it, naming the
// entry and the syntax, instead of granting a rule that never matches.
// The help's example is a rule that parses.
func TestWasmCallAllowNetRefusesWildcards(t *testing.T) {
	for _, entry := range []string{"*.example.com", "https://*.example.com:443", "*"} {
		o := wasitest(t, "env", "--allow-net", entry)
		o.want(t, 2, "", "--allow-net: invalid network allow entry '"+entry+"': '*' is not rule syntax")
		if !strings.Contains(o.stderr, "no wildcards") || o.stdout != "" {
			t.Errorf("%s: stdout %q stderr %q", entry, o.stdout, o.stderr)
		}
	}
	help := mur(t, "wasm", "call", "--help")
	if help.code != 0 || !strings.Contains(help.stdout, "--allow-net") || strings.Contains(help.stdout, "*.") {
		t.Errorf("help: exit %d\n%s", help.code, help.stdout)
	}
}
