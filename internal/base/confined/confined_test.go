package confined

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestConfinedRefusesPlantedLinks(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, link := range [][2]string{
		{outside, "out/result.txt"}, // absolute, outside
		{"../../x", "logs"},         // a directory link escaping the root
		{"result.txt", "out/alias"}, // inside the root, still a link
		{outside, "trace.jsonl"},    // the top level
	} {
		if err := os.Symlink(link[0], filepath.Join(dir, link[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "out", "result.txt.real"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct {
		name string
		flag int
	}{
		{"out/result.txt", os.O_CREATE | os.O_TRUNC},
		{"trace.jsonl", os.O_CREATE | os.O_APPEND},
		{"out/alias", os.O_CREATE | os.O_TRUNC},
		{"logs/hook-x.log", os.O_CREATE | os.O_APPEND},
	} {
		err := WriteFile(root, tc.name, []byte("overwritten"), 0o644, tc.flag)
		if err == nil {
			t.Errorf("%s: the write went through a planted link", tc.name)
		}
		if _, rerr := ReadFile(root, tc.name); rerr == nil {
			t.Errorf("%s: the read went through a planted link", tc.name)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Fatalf("the file outside holds %q", b)
	}
	var se *SymlinkError
	if err := WriteFile(root, "trace.jsonl", nil, 0o644, os.O_CREATE|os.O_APPEND); !errors.As(err, &se) || !errors.Is(err, ErrSymlink) {
		t.Errorf("error %v is not a *SymlinkError", err)
	}
	if err := WriteFile(root, "out/new.txt", []byte("x"), 0o755, os.O_CREATE|os.O_EXCL); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "out", "new.txt")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("new file: %v %v", fi, err)
	}
}

// A replacing write refuses a file a guest hard-linked to another one in
// the root, which writing in place would change too; an append to it is
// an append to that file either way and is not the replacement's concern.
func TestWriteFileRefusesHardLink(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "precious")
	if err := os.WriteFile(precious, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(precious, filepath.Join(dir, "result.txt")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, flag := range []int{os.O_CREATE | os.O_TRUNC, os.O_TRUNC} {
		if err := WriteFile(root, "result.txt", []byte("overwritten"), 0o644, flag); !errors.Is(err, ErrLinked) {
			t.Errorf("flag %#x: %v, want ErrLinked", flag, err)
		}
	}
	if b, _ := os.ReadFile(precious); string(b) != "precious" {
		t.Fatalf("the other name now holds %q", b)
	}
}
