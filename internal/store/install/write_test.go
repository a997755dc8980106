package install_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// TestStorePlacePin covers the writes once every check passed: the store
// gets the exact bytes with Murmur's metadata, tools/<name>/ gets the
// manifest and payload, and the lock gains the pin keeping other entries.
func TestStorePlacePin(t *testing.T) {
	native := testguest.Zip(t, "murmur.yaml", "name: tool\nversion: \"1.0.0\"\nruntime: tool\nimplementation: native\n", "bin/tool", "#!/bin/sh\n")
	skill := testguest.Zip(t, "murmur.yaml", "name: tool\nversion: \"1.0.0\"\nruntime: skill\n", "skill.md", "# rules")
	tests := []struct {
		name    string
		data    []byte
		typ     artifact.RuntimeType
		payload install.Payload
		files   map[string]os.FileMode // file under tools/tool → mode
	}{
		{name: "wasm", data: toolZip(t), typ: artifact.Wasm, payload: install.PayloadWasm,
			files: map[string]os.FileMode{"murmur.yaml": 0o644}},
		{name: "native", data: native, typ: artifact.Native, payload: install.PayloadNative,
			files: map[string]os.FileMode{"murmur.yaml": 0o644, "tool": 0o755}},
		{name: "skill", data: skill, typ: artifact.Static, payload: install.PayloadSkill,
			files: map[string]os.FileMode{"murmur.yaml": 0o644, "skill.md": 0o644}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			src := registry.NewLocal(filepath.Join(root, "registry"), nil)
			dst := registry.NewLocal(filepath.Join(root, "store"), nil)
			sha := publish(t, src, "tool", tc.typ, tc.data)
			lockPath := filepath.Join(root, lockfile.FileName)
			lock := pinOf("other", "2.0.0", sha)
			f := &install.Fetcher{Sources: []install.Source{{Name: "registry", Resolver: src}}, Lock: lock}
			a, err := f.Fetch(context.Background(), install.Request{Name: "tool", Version: "1.0.0",
				Payload: func(*install.Artifact) (install.Payload, error) { return tc.payload, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if a.SHA256 != sha || a.Source != "registry" || a.Payload != tc.payload || a.Manifest.Name != "tool" {
				t.Fatalf("artifact = %+v", a)
			}
			p, err := install.Store(context.Background(), dst, a)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(p); string(b) != string(tc.data) {
				t.Error("stored bytes differ")
			}
			got, err := dst.Resolve(context.Background(), "tool", "1.0.0", nil)
			if err != nil || got.Meta.Runtime != tc.typ || got.Verify() != nil {
				t.Fatalf("stored meta %+v, %v", got, err)
			}
			dir := filepath.Join(root, "tools", "tool")
			if err := install.Place(dir, a); err != nil {
				t.Fatal(err)
			}
			ents, _ := os.ReadDir(dir)
			if len(ents) != len(tc.files) {
				t.Errorf("placed %v, want %v", ents, tc.files)
			}
			for name, mode := range tc.files {
				fi, err := os.Stat(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if runtime.GOOS != "windows" && fi.Mode().Perm() != mode {
					t.Errorf("%s mode %v, want %v", name, fi.Mode().Perm(), mode)
				}
			}
			if err := install.Pin(lockPath, lock, a.Pin()); err != nil {
				t.Fatal(err)
			}
			l, err := lockfile.Read(lockPath)
			if err != nil {
				t.Fatal(err)
			}
			if e, ok := l.Find("tool"); !ok || e.ResolvedVersion != "1.0.0" || e.SHA256.Wasm != sha {
				t.Errorf("pin = %+v", e)
			}
			if _, ok := l.Find("other"); !ok {
				t.Error("an existing pin was lost")
			}
		})
	}
}

// TestStoreIntoItsOwnSource: installing from the store being installed
// into leaves its files as they are.
func TestStoreIntoItsOwnSource(t *testing.T) {
	store := registry.NewLocal(t.TempDir(), nil)
	publish(t, store, "tool", artifact.Wasm, toolZip(t))
	before := tree(t, store.Root())
	f := &install.Fetcher{Sources: []install.Source{{Name: "store", Resolver: store}}}
	a, err := f.Fetch(context.Background(), install.Request{Name: "tool", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := install.Store(context.Background(), store, a)
	if err != nil || p != store.PackagePath("tool", "1.0.0", nil) {
		t.Fatalf("store = %q, %v", p, err)
	}
	if after := tree(t, store.Root()); after != before {
		t.Errorf("store rewritten:\n%s\n%s", before, after)
	}
}

// TestPinWithoutLock writes a new lock.
func TestPinWithoutLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", lockfile.FileName)
	if err := install.Pin(path, nil); err != nil {
		t.Fatal(err)
	}
	l, err := lockfile.Read(path)
	if err != nil || len(l.Artifacts) != 0 {
		t.Fatalf("lock = %+v, %v", l, err)
	}
}
