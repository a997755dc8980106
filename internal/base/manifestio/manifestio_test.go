package manifestio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// countingReader records how much was read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestReadLimited(t *testing.T) {
	cases := []struct {
		name     string
		len      int
		header   int64
		wantSize int64 // -2: accepted
		maxRead  int64
	}{
		{"small", 100, -1, -2, 100},
		{"exactly the cap", MaxSize, -1, -2, MaxSize},
		{"one byte over", MaxSize + 1, -1, -1, MaxSize + 1},
		{"a gigabyte stream stops at the cap", 1 << 30, -1, -1, MaxSize + 1},
		{"a header over the cap is refused unread", 2 << 20, 2 << 20, 2 << 20, 0},
		{"a header that lies small still stops", 2 << 20, 10, -1, MaxSize + 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &countingReader{r: io.LimitReader(zeros{}, int64(tc.len))}
			b, err := ReadLimited(r, "murmur.yaml", tc.header)
			var se *SizeError
			switch {
			case tc.wantSize == -2 && (err != nil || len(b) != tc.len):
				t.Fatalf("got %d bytes, %v", len(b), err)
			case tc.wantSize != -2 && (!errors.As(err, &se) || se.Size() != tc.wantSize):
				t.Fatalf("got %v, want a SizeError of size %d", err, tc.wantSize)
			case r.n > tc.maxRead:
				t.Fatalf("read %d bytes, want at most %d", r.n, tc.maxRead)
			}
		})
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "murmur.yaml")
	os.WriteFile(big, bytes.Repeat([]byte("x"), 2<<20), 0o644)
	_, err := ReadFile(big)
	if want := big + " is too large (2097152 bytes, over 1 MiB)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v, want %q", err, want)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}
