package jsonline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/redact"
)

func TestFileWritesRedactedLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := New(f, redact.New("sk-secret"))
	big := strings.Repeat("y", 2*keepBuf)
	values := []any{
		map[string]string{"a": "<&> sk-secret"},
		map[string]string{"big": big},
		[]int{1, 2},
	}
	for _, v := range values {
		if err := w.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(func() {}); err == nil {
		t.Error("a value JSON cannot encode was written")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"<&> ` + redact.Marker + `"}` + "\n" + `{"big":"` + big + `"}` + "\n[1,2]\n"
	if string(b) != want {
		t.Errorf("file:\n%.200s\nwant:\n%.200s", b, want)
	}
}

func TestCompact(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{map[string]any{"b": 1, "a": "<x>"}, `{"a":"<x>","b":1}`},
		{[]string{}, `[]`},
		{nil, `null`},
	}
	for _, c := range cases {
		got, err := Compact(c.in)
		if err != nil || got != c.want {
			t.Errorf("Compact(%v) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
