package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command line `mur mcp serve` cannot take exits 2 before anything is
// read or staged, the manifest included (here there is none).
func TestMCPServeRefusesItsCommandLine(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	shared := filepath.Join(dir, "shared.token")
	if err := os.WriteFile(shared, []byte(strings.Repeat("a", 32)), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.token")
	if err := os.WriteFile(good, []byte(strings.Repeat("a", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, env string
		args      []string
		stderr    string
	}{
		{"a token file over stdio", "", []string{"--token-file", good}, "--token-file is for --http"},
		{"two tokens", strings.Repeat("b", 32), []string{"--http", "127.0.0.1:0", "--token-file", good}, "both MURMUR_MCP_TOKEN and --token-file"},
		{"a short token", "short", []string{"--http", "127.0.0.1:0"}, "MURMUR_MCP_TOKEN: the token has 5 bytes"},
		{"a token others may read", "", []string{"--http", "127.0.0.1:0", "--token-file", shared}, "chmod 600"},
		{"a missing token file", "", []string{"--http", "127.0.0.1:0", "--token-file", filepath.Join(dir, "none")}, "reading the token file"},
		{"an empty --http", "", []string{"--http", ""}, "--http needs HOST:PORT"},
		{"an --http that is no address", "", []string{"--http", "localhost"}, `--http "localhost" is not HOST:PORT`},
		{"a containment class that does not exist", "", []string{"--containment", "airtight"}, "airtight"},
		{"an argument", "", []string{"murmur.yaml"}, `unexpected argument "murmur.yaml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("MURMUR_MCP_TOKEN", tt.env)
			mur(t, append([]string{"mcp", "serve"}, tt.args...)...).want(t, exitUsage, "", tt.stderr)
		})
	}
	mur(t, "mcp", "server").want(t, exitUsage, "", `unknown command "server" for "mur mcp"; did you mean serve?`)
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("a refused command line left files behind: %v", entries)
	}
}
