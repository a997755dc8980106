package confined

import (
	"os"
	"path/filepath"
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
