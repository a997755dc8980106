package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFingerprint(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "task.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	stdin := func(data string) string {
		b, _ := json.Marshal(map[string]any{"data": data, "log_path": nil})
		return string(b)
	}
	cases := []struct {
		name, stdin   string
		status        string
		code          int
		summary, data string
	}{
		{"passed", stdin(`{"path":"task.md"}`), "passed", 0,
			"task.md: sha256 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03 (6 bytes)",
			`{"path":"task.md","bytes":6,"sha256":"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"}`},
		// The model picks the path: nothing outside the workdir is read.
		{"dot-dot", stdin(`{"path":"../` + filepath.Base(outside) + `/secret.txt"}`), "failed", 0, "path escapes from parent", ""},
		{"absolute", stdin(`{"path":"` + filepath.Join(outside, "secret.txt") + `"}`), "failed", 0, "path escapes from parent", ""},
		{"link out", stdin(`{"path":"link.txt"}`), "failed", 0, "path escapes from parent", ""},
		{"missing", stdin(`{"path":"nope.md"}`), "failed", 0, "no such file", ""},
		{"no path", stdin(`{}`), "failed", 0, `input must be {"path"`, ""},
		{"null data", `{"data":null,"log_path":null}`, "failed", 0, `input must be {"path"`, ""},
		{"not the protocol", `not json`, "error", 1, "stdin must be a JSON object", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, code := fingerprint(strings.NewReader(c.stdin), dir)
			if out.Status != c.status || code != c.code || !strings.Contains(out.Summary, c.summary) || out.Data != c.data {
				t.Errorf("got %+v exit %d, want status %s exit %d, summary containing %q, data %q",
					out, code, c.status, c.code, c.summary, c.data)
			}
		})
	}
}
