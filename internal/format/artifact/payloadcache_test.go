package artifact

import (
	"archive/zip"
	"bytes"
	"testing"
)

// memCache is a PayloadCache in memory that counts its reads.
type memCache struct {
	values map[[32]byte][]byte
	gets   int
}

func (c *memCache) Get(k [32]byte) ([]byte, bool) {
	c.gets++
	v, ok := c.values[k]
	return v, ok
}

func (c *memCache) Put(k [32]byte, v []byte) { c.values[k] = append([]byte(nil), v...) }

func payloadZip(t *testing.T, wasm []byte) *Package {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string][]byte{ManifestEntry: []byte("name: p\n"), "p.wasm": wasm} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p, err := Open(buf.Bytes(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A cached payload is used only when it is the archive's entry (its size
// and CRC-32 as the archive records them); one a local user altered or
// one of another archive is inflated again from the archive and replaced.
func TestRootWasmFromCache(t *testing.T) {
	wasm := []byte("\x00asm\x0d\x00\x01\x00 the payload")
	for _, tc := range []struct {
		name  string
		alter func([]byte) []byte
	}{
		{"kept as it was", func(b []byte) []byte { return b }},
		{"a byte changed", func(b []byte) []byte { c := bytes.Clone(b); c[len(c)-1] ^= 1; return c }},
		{"shorter", func(b []byte) []byte { return b[:len(b)-1] }},
		{"another payload", func([]byte) []byte { return []byte("\x00asm\x0d\x00\x01\x00 another one") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := payloadZip(t, wasm)
			c := &memCache{values: map[[32]byte][]byte{}}
			name, got, err := p.RootWasmFrom(c)
			if err != nil || name != "p.wasm" || !bytes.Equal(got, wasm) || len(c.values) != 1 {
				t.Fatalf("first read: %q %q %v, %d cached", name, got, err, len(c.values))
			}
			for k, v := range c.values {
				c.values[k] = tc.alter(v)
			}
			if _, got, err = p.RootWasmFrom(c); err != nil || !bytes.Equal(got, wasm) {
				t.Fatalf("second read returned %q (%v), want the archive's payload", got, err)
			}
			for _, v := range c.values {
				if !bytes.Equal(v, wasm) {
					t.Errorf("the cache keeps %q, want the archive's payload again", v)
				}
			}
		})
	}
}

// Without a cache, RootWasmFrom inflates the payload as RootWasm does.
func TestRootWasmFromNoCache(t *testing.T) {
	wasm := []byte("\x00asm\x0d\x00\x01\x00 the payload")
	name, got, err := payloadZip(t, wasm).RootWasmFrom(nil)
	if err != nil || name != "p.wasm" || !bytes.Equal(got, wasm) {
		t.Fatalf("RootWasmFrom(nil) = %q %q %v", name, got, err)
	}
}
