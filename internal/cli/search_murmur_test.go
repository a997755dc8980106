package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tests of Murmur's crates/murmur-cli/tests/search_cmd.rs, one Go test
// each under its name, run through the mur command.

// writeIndex writes a schema-1 artifacts-index.json into dir and returns
// its absolute path, for --registry.
func writeIndex(t *testing.T, dir string, entries ...map[string]any) string {
	t.Helper()
	if entries == nil {
		entries = []map[string]any{}
	}
	data, err := json.MarshalIndent(map[string]any{
		"schema_version": "1",
		"updated_at":     "2026-06-07T00:00:00Z",
		"artifacts":      entries,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "artifacts-index.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func toolEntry(name string) map[string]any {
	return map[string]any{
		"name":        name,
		"version":     "1.0.0",
		"runtime":     "tool",
		"description": "The " + name + " tool.",
		"tags":        []string{name},
		"platforms":   []string{"darwin-aarch64"},
	}
}

// publishLocal publishes a real package named name@1.0.0 into the global
// store of the test's HOME (Murmur's test writes a stub; mur's store
// verifies what it is given).
func publishLocal(t *testing.T, name string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	wasm, err := os.ReadFile(filepath.Join(examplePath(t, "canned-tool"), "canned_tool.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	y := "name: " + name + "\nversion: \"1.0.0\"\nruntime: tool\nrequires_files:\n  - canned_tool.wasm\n"
	if err := os.WriteFile(filepath.Join(src, "murmur.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "canned_tool.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	mur(t, "build", src, "-o", out).want(t, 0, "Built artifact", "")
	mur(t, "publish", filepath.Join(out, name+"-1.0.0.mur.zip"), "--registry", "local").want(t, 0, "Published "+name+"@1.0.0", "")
}

// searchHome gives the test an empty HOME (an empty global store) and
// returns it.
func searchHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", "")
	t.Chdir(t.TempDir())
	return home
}

func TestSearchIndexQueryMatchesReturnsRow(t *testing.T) { // search_index_query_matches_returns_row
	dir := searchHome(t)
	idx := writeIndex(t, dir, toolEntry("murmur-tool-git"))
	mur(t, "search", "git", "--registry", idx).want(t, 0, "murmur-tool-git", "")
}

func TestSearchIndexNoMatchPrintsNoResults(t *testing.T) { // search_index_no_match_prints_no_results
	dir := searchHome(t)
	idx := writeIndex(t, dir, toolEntry("murmur-tool-git"))
	mur(t, "search", "zzznomatch", "--registry", idx).want(t, 0, "No results found", "")
}

func TestSearchLocalPopulatedReturnsArtifact(t *testing.T) { // search_local_populated_returns_artifact
	searchHome(t)
	publishLocal(t, "murmur-tool-editor")
	mur(t, "search", "editor", "--registry", "local").want(t, 0, "murmur-tool-editor", "")
}

func TestSearchLocalEmptyReturnsNoResults(t *testing.T) { // search_local_empty_returns_no_results
	searchHome(t)
	mur(t, "search", "git", "--registry", "local").want(t, 0, "No results found", "")
}

func TestSearchWrongSchemaVersionFailsGracefully(t *testing.T) { // search_wrong_schema_version_fails_gracefully
	dir := searchHome(t)
	path := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(path, []byte(`{"schema_version":"99","updated_at":"2026-06-07T00:00:00Z","artifacts":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := mur(t, "search", "git", "--registry", path)
	o.want(t, 1, "", "schema version")
	if o.stdout != "" {
		t.Errorf("stdout %q, want nothing", o.stdout)
	}
}

func TestSearchLimitCapsResults(t *testing.T) { // search_limit_caps_results
	dir := searchHome(t)
	idx := writeIndex(t, dir, toolEntry("murmur-tool-alpha"), toolEntry("murmur-tool-beta"), toolEntry("murmur-tool-gamma"))
	o := mur(t, "search", "murmur", "--registry", idx, "--limit", "1")
	o.want(t, 0, "", "")
	var lines []string
	for _, l := range strings.Split(o.stdout, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 {
		t.Errorf("expected header + 1 result row, got:\n%s", o.stdout)
	}
}

func TestSearchNetworkErrorExitsNonzeroWithURLInMessage(t *testing.T) { // search_network_error_exits_nonzero_with_url_in_message
	searchHome(t)
	badURL := "https://this-does-not-exist.invalid/artifacts-index.json"
	mur(t, "search", "git", "--registry", badURL).want(t, 1, "", badURL)
}
