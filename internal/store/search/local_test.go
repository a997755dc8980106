package search

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The global store's metadata reads as index entries: description and
// tags from .meta.json, platforms as os-arch, the role as the runtime.
func TestLoadLocal(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".murmur", "artifacts", "murmur-tool-editor", "1.0.0")
	files := map[string]string{
		"murmur-tool-editor-1.0.0-darwin-aarch64.mur.zip": "zip",
		"murmur-tool-editor-1.0.0-darwin-aarch64.sha256":  "00",
		"murmur-tool-editor-1.0.0.meta.json": `{"meta":{"name":"murmur-tool-editor","version":"1.0.0","runtime":"native","artifact_runtime":"tool",` +
			`"platforms":[["darwin","aarch64"]],"description":"Edits files.","tags":["files"]}}`,
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	got, err := Load(context.Background(), Source{Kind: Local}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "murmur-tool-editor", Version: "1.0.0", Runtime: "tool", Description: strp("Edits files."),
		Tags: []string{"files"}, Platforms: []string{"darwin-aarch64"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, q := range []string{"EDITOR", "edits", "FILES"} {
		if len(Match(got, q, 10)) != 1 {
			t.Errorf("%q does not match the stored entry", q)
		}
	}
	empty, err := Load(context.Background(), Source{Kind: Local}, func(string) string { return t.TempDir() })
	if err != nil || len(empty) != 0 {
		t.Errorf("empty store: %v, %v", empty, err)
	}
}
