package cli

import "testing"

// TestPlainHTTPOnlyForOCI: --plain-http is a command-line error (exit 2)
// for a registry it would not apply to, rather than being ignored.
func TestPlainHTTPOnlyForOCI(t *testing.T) {
	sandbox(t, "canned-tool@0.1.0")
	for _, args := range [][]string{
		{"install", "--plain-http"},
		{"install", "canned-tool@0.1.0", "--plain-http", "--registry", "http://127.0.0.1:1"},
		{"publish", "x.mur.zip", "--plain-http", "--registry", "local"},
	} {
		mur(t, args...).wantOutput(t, 2, "--plain-http applies only to an oci:// registry")
	}
}
