package traceview

import (
	"os"
	"path/filepath"
	"testing"
)

// Every selector's Ref names the session directory the trace is in, for
// the commands that read the files beside it.
func TestRefSessionDir(t *testing.T) {
	wd := t.TempDir()
	const top, byRun = "ses_0199aaaaaaaa7aaa8aaa000000000001", "ses_0199bbbbbbbb7bbb8bbb000000000002"
	for _, dir := range []string{filepath.Join(wd, top), filepath.Join(wd, murmurDir, byRun)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "trace.jsonl"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for sel, want := range map[string]string{
		"":                                      filepath.Join(wd, murmurDir, byRun),
		"@2":                                    filepath.Join(wd, top),
		top:                                     filepath.Join(wd, top),
		byRun:                                   filepath.Join(wd, murmurDir, byRun),
		"0002":                                  filepath.Join(wd, murmurDir, byRun),
		filepath.Join(wd, top):                  filepath.Join(wd, top),
		filepath.Join(wd, top) + "/trace.jsonl": filepath.Join(wd, top),
	} {
		ref, err := Newest(wd)
		if sel != "" {
			ref, err = Select(wd, sel)
		}
		if err != nil || ref.SessionDir() != want {
			t.Errorf("%q: %s, %v; want %s", sel, ref.SessionDir(), err, want)
		}
	}
}
