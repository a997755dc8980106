package testguest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSnapshotDiff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, root string)
		want   []string
	}{
		{"nothing", func(*testing.T, string) {}, nil},
		{"created", func(t *testing.T, root string) { write(t, filepath.Join(root, "new")) }, []string{"created new"}},
		{"changed", func(t *testing.T, root string) {
			old := filepath.Join(root, "old")
			if err := os.Chtimes(old, time.Time{}, time.Unix(1, 0)); err != nil {
				t.Fatal(err)
			}
		}, []string{"changed old"}},
		{"removed", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "old")); err != nil {
				t.Fatal(err)
			}
		}, []string{"removed old"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "old"))
			// A fixed directory time, so only the change under test shows.
			stamp := func() {
				if err := os.Chtimes(root, time.Time{}, time.Unix(2, 0)); err != nil {
					t.Fatal(err)
				}
			}
			stamp()
			before := snapshot([]string{root})
			tc.change(t, root)
			stamp()
			var got []string
			for _, c := range diff(before, snapshot([]string{root})) {
				verb, path, _ := strings.Cut(c, " ")
				rel, err := filepath.Rel(root, path)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, verb+" "+rel)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("diff = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSnapshotOfAMissingRootIsEmpty(t *testing.T) {
	if s := snapshot([]string{filepath.Join(t.TempDir(), "none")}); len(s) != 0 {
		t.Errorf("snapshot = %v", s)
	}
}

func TestCacheDirIsUnderTheModuleAndStable(t *testing.T) {
	a, err := CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	b, err := CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	if a != b || filepath.Dir(a) != filepath.Join(ModuleRoot(), ".cache", "test-wasm") {
		t.Errorf("CacheDir = %q then %q, want one dir under %s", a, b, filepath.Join(ModuleRoot(), ".cache", "test-wasm"))
	}
	if fi, err := os.Stat(a); err != nil || !fi.IsDir() {
		t.Errorf("CacheDir did not create %s: %v", a, err)
	}
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}
