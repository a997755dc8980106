package confined

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A Dir, which keeps its directory open, refuses what a guest plants at a
// name as the package functions do: a link at the top level or on the
// way, a FIFO, a second name for a replacing write. Replace still leaves
// a file of its own, and a file swapped in between two accesses is the
// one the next access reaches.
func TestDirRefusesPlanted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, dir, outside string)
		file  string
		read  error // ReadFile's error, nil: reads
		write error // a replacing WriteFile's
	}{
		{"symlink out", func(t *testing.T, dir, outside string) { must(t, os.Symlink(outside, filepath.Join(dir, "task.md"))) },
			"task.md", ErrSymlink, ErrSymlink},
		{"hard link", func(t *testing.T, dir, outside string) { must(t, os.Link(outside, filepath.Join(dir, "task.md"))) },
			"task.md", nil, ErrLinked},
		{"fifo", func(t *testing.T, dir, _ string) { must(t, syscall.Mkfifo(filepath.Join(dir, "task.md"), 0o644)) },
			"task.md", ErrNotRegular, ErrNotRegular},
		{"linked directory", func(t *testing.T, dir, outside string) {
			must(t, os.Symlink(filepath.Dir(outside), filepath.Join(dir, "out")))
		}, "out/precious", errors.New("escapes"), errors.New("escapes")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outside := filepath.Join(t.TempDir(), "precious")
			if tc.name == "hard link" {
				outside = filepath.Join(dir, "precious")
			}
			write(t, outside, "precious")
			tc.plant(t, dir, outside)
			d, err := OpenDir(dir)
			must(t, err)
			defer d.Close()
			if _, err := d.ReadFile(tc.file); !matches(err, tc.read) {
				t.Errorf("ReadFile: %v, want %v", err, tc.read)
			}
			if err := d.WriteFile(tc.file, []byte("overwritten"), 0o644, os.O_CREATE|os.O_TRUNC); !matches(err, tc.write) {
				t.Errorf("WriteFile: %v, want %v", err, tc.write)
			}
			if tc.file == "task.md" {
				must(t, d.Replace(tc.file, []byte("next task"), 0o644))
				fi, err := os.Lstat(filepath.Join(dir, tc.file))
				if err != nil || !fi.Mode().IsRegular() || !soleLink(fi) {
					t.Fatalf("task.md is %v (%v), want a regular file of its own", fi.Mode(), err)
				}
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Errorf("the planted file now holds %q", b)
			}
		})
	}
}

// matches: want nil is no error, a sentinel is errors.Is, anything else
// is just some error.
func matches(err, want error) bool {
	switch {
	case want == nil:
		return err == nil
	case errors.Is(want, ErrSymlink), errors.Is(want, ErrLinked), errors.Is(want, ErrNotRegular):
		return errors.Is(err, want)
	}
	return err != nil
}

// Each access opens the name anew: a file renamed over it between two
// accesses is the one the second reaches.
func TestDirReachesTheCurrentFile(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenDir(dir)
	must(t, err)
	defer d.Close()
	must(t, d.WriteFile("task.md", []byte("first"), 0o644, os.O_CREATE|os.O_TRUNC))
	write(t, filepath.Join(dir, "new"), "second")
	must(t, os.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "task.md")))
	if b, err := d.ReadFile("task.md"); err != nil || string(b) != "second" {
		t.Fatalf("ReadFile = %q, %v, want the renamed file", b, err)
	}
}
