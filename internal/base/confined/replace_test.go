package confined

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A replacement leaves exactly the new contents, whatever was there; an
// append still appends.
func TestWriteFileReplaces(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  *string
		data string
		flag int
		want string
	}{
		{"new file", nil, "answer", os.O_CREATE | os.O_TRUNC, "answer"},
		{"shorter over longer", ptr("a much longer previous answer"), "short", os.O_CREATE | os.O_TRUNC, "short"},
		{"longer over shorter", ptr("x"), "a longer answer", os.O_CREATE | os.O_TRUNC, "a longer answer"},
		{"empty over text", ptr("previous"), "", os.O_CREATE | os.O_TRUNC, ""},
		{"same length", ptr("abcdef"), "ghijkl", os.O_TRUNC, "ghijkl"},
		{"append", ptr("one\n"), "two\n", os.O_CREATE | os.O_APPEND, "one\ntwo\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "result.txt")
			if tc.old != nil {
				if err := os.WriteFile(path, []byte(*tc.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			if err := WriteFile(root, "result.txt", []byte(tc.data), 0o644, tc.flag); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != tc.want {
				t.Fatalf("result.txt holds %q (%v), want %q", b, err, tc.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// BenchmarkWriteFileReplace is the cost of replacing a file's contents,
// as out/result.txt is once a task.
func BenchmarkWriteFileReplace(b *testing.B) {
	dir := b.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	data := []byte("bench answer")
	for range b.N {
		if err := WriteFile(root, "result.txt", data, 0o644, os.O_CREATE|os.O_TRUNC); err != nil {
			b.Fatal(err)
		}
	}
}

// Replace leaves name a file of its own holding exactly the new data,
// whatever a guest planted there, and writes nothing else: not a link's
// target, not another name of a hard-linked file, and it never waits on
// a FIFO. Reads and appends refuse a FIFO at once too. A plain file is
// written in place (the cheap path).
func TestReplacePlanted(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, path, outside string)
		inPlace bool
	}{
		{"absent", func(*testing.T, string, string) {}, false},
		{"plain file", func(t *testing.T, path, _ string) { write(t, path, "the last task's much longer text") }, true},
		{"symlink out", func(t *testing.T, path, outside string) { must(t, os.Symlink(outside, path)) }, false},
		{"hard link", func(t *testing.T, path, outside string) { must(t, os.Link(outside, path)) }, false},
		{"fifo", func(t *testing.T, path, _ string) { must(t, syscall.Mkfifo(path, 0o644)) }, false},
		{"empty dir", func(t *testing.T, path, _ string) { must(t, os.Mkdir(path, 0o755)) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "precious")
			if tc.name == "hard link" { // a link needs one filesystem
				outside = filepath.Join(dir, "precious")
			}
			write(t, outside, "precious")
			path := filepath.Join(dir, "task.md")
			tc.plant(t, path, outside)
			before, _ := os.Lstat(path)
			root, err := os.OpenRoot(dir)
			must(t, err)
			defer root.Close()
			if tc.name == "fifo" {
				for _, flag := range []int{os.O_RDONLY, os.O_WRONLY | os.O_APPEND} {
					if f, err := OpenFile(root, "task.md", flag, 0); !errors.Is(err, ErrNotRegular) {
						f.Close()
						t.Errorf("opening a FIFO with flag %#x: %v, want ErrNotRegular", flag, err)
					}
				}
			}
			must(t, Replace(root, "task.md", []byte("next task"), 0o644))
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || !soleLink(fi) {
				t.Fatalf("task.md is %v (%v), want a regular file of its own", fi.Mode(), err)
			}
			if tc.inPlace && !os.SameFile(before, fi) {
				t.Error("a plain task.md was replaced by a new file, not written in place")
			}
			if b, _ := os.ReadFile(path); string(b) != "next task" {
				t.Errorf("task.md holds %q", b)
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Errorf("the planted link's file now holds %q", b)
			}
		})
	}
}

func write(t *testing.T, path, s string) { must(t, os.WriteFile(path, []byte(s), 0o644)) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
