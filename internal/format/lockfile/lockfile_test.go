package lockfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

const sha = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

func TestParseValid(t *testing.T) {
	l, err := Parse([]byte("lock_version: 1\nartifacts:\n- name: some-tool\n  resolved_version: 1.0\n  sha256:\n    wasm: " + sha + "\n  extra: ignored\nother: ignored\n"))
	if err != nil {
		t.Fatal(err)
	}
	e, ok := l.Find("some-tool")
	if !ok || e.ResolvedVersion != "1.0" || e.SHA256.Wasm != sha {
		t.Errorf("entry %+v", e)
	}
	if l, err := Parse([]byte("lock_version: 1\nartifacts:\n")); err != nil || len(l.Artifacts) != 0 {
		t.Errorf("empty artifacts: %v %v", l, err)
	}
}

// One case per validation message; all are E-RUN-003 "invalid murmur.lock".
func TestParseInvalid(t *testing.T) {
	for _, tc := range []struct{ text, msg string }{
		{"lock_version: 2\nartifacts: []\n", "invalid murmur.lock: unsupported lock_version 2 (expected 1)"},
		{"lock_version: '1'\nartifacts: []\n", "lock_version must be a plain integer"},
		{"lock_version: 1.0\nartifacts: []\n", "lock_version must be a plain integer"},
		{"lock_version: -1\nartifacts: []\n", "lock_version must be a plain integer"},
		{"artifacts: []\n", "missing field `lock_version`"},
		{"lock_version: 1\n", "missing field `artifacts`"},
		{"lock_version: 1\nartifacts: {}\n", "artifacts must be a list"},
		{"lock_version: 1\nartifacts:\n- name: ' '\n  resolved_version: 1\n  sha256: {wasm: x}\n", "artifact entry has empty name"},
		{"lock_version: 1\nartifacts:\n- name: a\n  sha256: {wasm: x}\n", "artifact 'a' has empty resolved_version"},
		{"lock_version: 1\nartifacts:\n- name: a\n  resolved_version: 1\n", "artifact 'a' has empty sha256.wasm"},
		{"lock_version: [\n", "invalid murmur.lock: YAML parse error: "},
		{"- a\n", "YAML parse error"},
	} {
		_, err := Parse([]byte(tc.text))
		var e *diag.Error
		if !errors.As(err, &e) || e.Code != CodeInvalid || !strings.Contains(e.Msg, tc.msg) || !IsInvalid(err) {
			t.Errorf("%q: got %v, want E-RUN-003 %q", tc.text, err, tc.msg)
		}
	}
}

func TestMarshalLayout(t *testing.T) {
	l := New()
	l.Upsert(Entry{Name: "some-tool", ResolvedVersion: "1.2.3", SHA256: Hashes{Wasm: sha}})
	l.Upsert(Entry{Name: "other", ResolvedVersion: "1.0", SHA256: Hashes{Wasm: "ab"}})
	l.Upsert(Entry{Name: "some-tool", ResolvedVersion: "1.2.4", SHA256: Hashes{Wasm: sha}})
	b, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := "lock_version: 1\nartifacts:\n- name: some-tool\n  resolved_version: 1.2.4\n  sha256:\n    wasm: " + sha +
		"\n- name: other\n  resolved_version: \"1.0\"\n  sha256:\n    wasm: ab\n"
	if string(b) != want {
		t.Errorf("got:\n%s\nwant:\n%s", b, want)
	}
	back, err := Parse(b)
	if err != nil || len(back.Artifacts) != 2 || back.Artifacts[1].ResolvedVersion != "1.0" {
		t.Errorf("round trip: %+v %v", back, err)
	}
	bad := New()
	bad.Artifacts = append(bad.Artifacts, Entry{Name: "x"})
	if _, err := bad.Marshal(); !IsInvalid(err) {
		t.Errorf("an invalid lock was serialised: %v", err)
	}
}

func TestCheckInstall(t *testing.T) {
	l := New()
	l.Upsert(Entry{Name: "t", ResolvedVersion: "1.0.0", SHA256: Hashes{Wasm: sha}})
	if err := l.CheckInstall("t", "1.0.0", strings.ToUpper(sha)); err != nil {
		t.Errorf("same pin: %v", err)
	}
	if err := l.CheckInstall("new", "1", "x"); err != nil {
		t.Errorf("unpinned: %v", err)
	}
	for _, tc := range []struct{ version, sha string }{{"1.0.1", sha}, {"1.0.0", "ff"}} {
		err := l.CheckInstall("t", tc.version, tc.sha)
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("%v: no conflict", tc)
		}
		want := "error[E-REG-005]: murmur.lock conflict for 't': pinned t@1.0.0 (sha256 " + sha + "), but the registry now resolves t@" + tc.version + " (sha256 " + tc.sha + ")\n  hint: "
		if !strings.HasPrefix(diag.Render(err), want) {
			t.Errorf("got %q\nwant prefix %q", err, want)
		}
	}
}

func TestWriteIsAtomicAndReadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	path := filepath.Join(dir, FileName)
	if _, err := Read(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing lock: %v", err)
	}
	l, err := ReadOrNew(path)
	if err != nil || len(l.Artifacts) != 0 {
		t.Fatalf("ReadOrNew: %v %v", l, err)
	}
	l.Upsert(Entry{Name: "t", ResolvedVersion: "1", SHA256: Hashes{Wasm: sha}})
	if err := Write(path, l); err != nil {
		t.Fatal(err)
	}
	l.Upsert(Entry{Name: "u", ResolvedVersion: "2", SHA256: Hashes{Wasm: sha}})
	if err := Write(path, l); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil || len(got.Artifacts) != 2 {
		t.Fatalf("read back %+v %v", got, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	// A failed validation writes nothing.
	l.Artifacts[0].SHA256.Wasm = ""
	if err := Write(path, l); !IsInvalid(err) {
		t.Errorf("invalid write: %v", err)
	}
	if got, _ := Read(path); got == nil || got.Artifacts[0].SHA256.Wasm != sha {
		t.Error("the invalid lock replaced the good one")
	}
	os.WriteFile(path, []byte("lock_version: 9\nartifacts: []\n"), 0o644)
	if _, err := ReadOrNew(path); !IsInvalid(err) {
		t.Errorf("ReadOrNew must not hide an invalid lock: %v", err)
	}
}
