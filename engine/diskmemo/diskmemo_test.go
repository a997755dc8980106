package diskmemo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestPutThenGet(t *testing.T) {
	m, err := Open(filepath.Join(t.TempDir(), "memo"))
	if err != nil {
		t.Fatal(err)
	}
	k := [32]byte{1, 2, 3}
	if _, ok := m.Get(k); ok {
		t.Fatal("a hit in an empty memo")
	}
	for _, v := range [][]byte{[]byte("first"), []byte("second, longer")} {
		m.Put(k, v)
		got, ok := m.Get(k)
		if !ok || !bytes.Equal(got, v) {
			t.Fatalf("Get = %q, %v after Put %q", got, ok, v)
		}
	}
	if _, ok := m.Get([32]byte{9}); ok {
		t.Fatal("a hit for a key never put")
	}
	left, _ := filepath.Glob(filepath.Join(m.dir, "*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	fi, err := os.Stat(m.path(k))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("entry mode %v (%v), want 0600", fi.Mode(), err)
	}
}

// FuzzDecode: an entry read from disk decodes to its value or is refused,
// and a value is returned only under the key the entry was written for.
func FuzzDecode(f *testing.F) {
	k := [32]byte{7}
	m := &Memo{dir: f.TempDir()}
	m.Put(k, []byte("value"))
	if b, err := os.ReadFile(m.path(k)); err == nil {
		f.Add(b)
	}
	f.Add([]byte("murmemo\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decode(k, b)
		if err != nil {
			return
		}
		if len(b) != headerSize+len(v) || !bytes.Equal(b[8:40], k[:]) {
			t.Fatalf("decoded %x to %q", b, v)
		}
	})
}
