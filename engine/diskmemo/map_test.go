package diskmemo

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
)

// Map hands back the value where it is in the entry's file: the same
// bytes Get reads, the same mapping for every Map of the key, capped so
// an append copies, and read-only, so a write faults instead of changing
// what was compiled from it.
func TestMapIsTheEntryInPlace(t *testing.T) {
	m, err := Open(filepath.Join(t.TempDir(), "memo"))
	if err != nil {
		t.Fatal(err)
	}
	k := [32]byte{4, 2}
	if _, ok := m.Map(k); ok {
		t.Fatal("a hit in an empty memo")
	}
	want := bytes.Repeat([]byte("rewritten module "), 1000)
	m.Put(k, want)
	v, ok := m.Map(k)
	if !ok || !bytes.Equal(v, want) {
		t.Fatalf("Map = %d bytes, %v after Put of %d", len(v), ok, len(want))
	}
	if cap(v) != len(v) {
		t.Errorf("the value's capacity is %d, past its %d bytes", cap(v), len(v))
	}
	again, ok := m.Map(k)
	if !ok || &again[0] != &v[0] {
		t.Error("a second Map of the key mapped the entry again")
	}
	if runtime.GOOS != "windows" && !writeFaults(v) {
		t.Error("writing to a mapped value did not fault")
	}
}

// writeFaults reports whether writing to b faults.
func writeFaults(b []byte) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { faulted = recover() != nil }()
	b[0] ^= 0xff
	return false
}

// Map believes what Get believes and nothing else: an entry altered,
// another key's, a link, or one others may write is a miss.
func TestMapRefusesWhatGetRefuses(t *testing.T) {
	k := [32]byte{7, 7}
	tests := []struct {
		name  string
		alter func(t *testing.T, path string)
	}{
		{"a byte of the value flipped", func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)-1] ^= 0xff
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"the entry of another key", func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b[8] ^= 0xff
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"cut short", func(t *testing.T, path string) {
			if err := os.Truncate(path, headerSize-1); err != nil {
				t.Fatal(err)
			}
		}},
		{"a symbolic link to a copy", func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cp := filepath.Join(t.TempDir(), "entry")
			if err := os.WriteFile(cp, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(cp, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"writable by others", func(t *testing.T, path string) {
			if runtime.GOOS == "windows" {
				t.Skip("no mode bits to check")
			}
			if err := os.Chmod(path, 0o666); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Open(filepath.Join(t.TempDir(), "memo"))
			if err != nil {
				t.Fatal(err)
			}
			m.Put(k, []byte("a value"))
			tt.alter(t, m.path(k))
			if v, ok := m.Get(k); ok {
				t.Errorf("Get believed the entry: %q", v)
			}
			if v, ok := m.Map(k); ok {
				t.Errorf("Map believed the entry: %q", v)
			}
		})
	}
}
