package artifact

import (
	"archive/zip"
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// entry describes one zip entry a test archive holds.
type entry struct {
	name string
	data []byte
	mode fs.FileMode // 0 means a regular 0644 file
}

// makeZip builds an archive in memory with archive/zip, Deflate-compressed.
func makeZip(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.SetMode(0o644)
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSanitizeEntryName(t *testing.T) {
	for _, tc := range []struct{ raw, want, err string }{
		{"murmur.yaml", "murmur.yaml", ""},
		{"/murmur.yaml", "murmur.yaml", ""},
		{"///bin/tool", "bin/tool", ""},
		{"a/b/c.wasm", "a/b/c.wasm", ""},
		{"../evil", "", "zip entry '../evil' has an unsafe path: contains a '..' component"},
		{"a/../../evil", "", "contains a '..' component"},
		{"/../etc/passwd", "", "contains a '..' component"},
		{`a\..\evil`, "", "contains a '..' component"},
		{`C:\Windows\x`, "", "contains an absolute path component"},
		{`\\server\share`, "", "contains an absolute path component"},
		{"a\x00b", "", "contains a NUL byte"},
		{"..x/ok", "..x/ok", ""},
	} {
		got, err := SanitizeEntryName(tc.raw)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrUnsafeEntry) {
				t.Errorf("SanitizeEntryName(%q) = %q, %v; want error %q", tc.raw, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("SanitizeEntryName(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
		}
	}
}

func TestResolveWithin(t *testing.T) {
	base := t.TempDir()
	if p, err := ResolveWithin(base, "/tools/x/murmur.yaml"); err != nil || p != filepath.Join(base, "tools", "x", "murmur.yaml") {
		t.Errorf("ResolveWithin = %q, %v", p, err)
	}
	for _, raw := range []string{"../x", "a/../../x", `..\x`} {
		if _, err := ResolveWithin(base, raw); err == nil {
			t.Errorf("ResolveWithin(%q) escaped the base", raw)
		}
	}
}

func TestMaxDecompressedBytes(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int64
	}{
		{"", DefaultMaxDecompressedBytes},
		{"1024", 1024},
		{"0", 0},
		{"+7", 7},
		{"-1", DefaultMaxDecompressedBytes},
		{"ten", DefaultMaxDecompressedBytes},
		{"18446744073709551615", 1<<63 - 1},
	} {
		got := MaxDecompressedBytes(func(k string) string {
			if k != MaxDecompressedEnv {
				t.Fatalf("read %s", k)
			}
			return tc.env
		})
		if got != tc.want {
			t.Errorf("env %q: got %d, want %d", tc.env, got, tc.want)
		}
	}
}

func TestSelectRootWasm(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
		err   string
	}{
		{[]string{"murmur.yaml", "tool.wasm"}, "tool.wasm", ""},
		{[]string{"a.wasm", "capsule.wasm", "b.wasm"}, "capsule.wasm", ""},
		{[]string{"murmur.yaml"}, "", "missing root .wasm file (expected capsule.wasm or one root *.wasm)"},
		{[]string{"sub/x.wasm", "./y.wasm", "/z.wasm", "../w.wasm"}, "", "missing root .wasm file"},
		{[]string{"b.wasm", "a.wasm", "sub/c.wasm"}, "", "multiple root .wasm files found: a.wasm, b.wasm"},
		{[]string{`dir\x.wasm`, "x.wasm"}, "x.wasm", ""},
	} {
		got, err := SelectRootWasm(tc.names)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: got %q, %v; want error %q", tc.names, got, err, tc.err)
			}
		} else if err != nil || got != tc.want {
			t.Errorf("%v: got %q, %v; want %q", tc.names, got, err, tc.want)
		}
	}
}

func TestOpenAndRead(t *testing.T) {
	data := makeZip(t,
		entry{name: "murmur.yaml", data: []byte("name: t\nversion: '1'\nruntime: tool\n")},
		entry{name: "t.wasm", data: []byte("\x00asm")},
		entry{name: "bin/t", data: []byte("#!/bin/sh\n"), mode: 0o755},
		entry{name: "skill.md", data: []byte("# skill")},
	)
	p, err := Open(data, DefaultMaxDecompressedBytes)
	if err != nil {
		t.Fatal(err)
	}
	if p.SHA256() != SHA256Hex(data) {
		t.Error("sha256 is not over the archive bytes")
	}
	if m, err := p.Manifest(); err != nil || !strings.HasPrefix(string(m), "name: t") {
		t.Errorf("Manifest = %q, %v", m, err)
	}
	if n, w, err := p.RootWasm(); err != nil || n != "t.wasm" || string(w) != "\x00asm" {
		t.Errorf("RootWasm = %q, %q, %v", n, w, err)
	}
	if b, err := p.NativeBinary("t"); err != nil || string(b) != "#!/bin/sh\n" {
		t.Errorf("NativeBinary = %q, %v", b, err)
	}
	if _, err := p.NativeBinary("u"); err == nil || !strings.Contains(err.Error(), "ensure the binary is at bin/u inside the .mur.zip") {
		t.Errorf("NativeBinary(missing) = %v", err)
	}
	if _, err := p.ReadEntry("/murmur.yaml"); !errors.Is(err, ErrEntryNotFound) {
		t.Errorf("lookups must be by exact name, got %v", err)
	}
}

// Archives that must be refused, each built with archive/zip.
func TestHostileArchives(t *testing.T) {
	manifest := entry{name: "murmur.yaml", data: []byte("name: t\nversion: '1'\nruntime: tool\n")}
	bomb := bytes.Repeat([]byte{0}, 4<<20) // 4 MiB of zeros deflates to a few KiB
	many := make([]entry, MaxEntries+1)
	for i := range many {
		many[i] = entry{name: "f" + strconv.Itoa(i)}
	}
	for _, tc := range []struct {
		name   string
		data   func() []byte
		max    int64
		read   func(*Package) error
		err    string
		target error
	}{
		{"zip bomb entry over the ceiling", func() []byte { return makeZip(t, manifest, entry{name: "t.wasm", data: bomb}) }, 1 << 20,
			func(p *Package) error { _, _, err := p.RootWasm(); return err },
			"zip entry 't.wasm' exceeds the 1048576-byte decompression ceiling", ErrTooLarge},
		{"ceiling 0 refuses any content", func() []byte { return makeZip(t, manifest) }, 0,
			func(p *Package) error { _, err := p.Manifest(); return err },
			"exceeds the 0-byte decompression ceiling", ErrTooLarge},
		{"entry-count bomb", func() []byte { return makeZip(t, many...) }, DefaultMaxDecompressedBytes, nil,
			"more than the 10000 mur accepts", ErrTooLarge},
		{"duplicate names", func() []byte { return makeZip(t, manifest, manifest) }, DefaultMaxDecompressedBytes, nil,
			"more than one entry named 'murmur.yaml'", ErrUnsafeEntry},
		{"symlinked payload", func() []byte {
			return makeZip(t, manifest, entry{name: "bin/t", data: []byte("/etc/passwd"), mode: fs.ModeSymlink | 0o777})
		}, DefaultMaxDecompressedBytes,
			func(p *Package) error { _, err := p.NativeBinary("t"); return err },
			"zip entry 'bin/t' is a symlink", ErrUnsafeEntry},
		{"zip-slip names are never payloads", func() []byte {
			return makeZip(t, manifest, entry{name: "../../evil.wasm", data: []byte("x")}, entry{name: "/abs.wasm", data: []byte("x")})
		}, DefaultMaxDecompressedBytes,
			func(p *Package) error { _, _, err := p.RootWasm(); return err },
			"missing root .wasm file", ErrNoRootWasm},
		{"manifest not UTF-8", func() []byte { return makeZip(t, entry{name: "murmur.yaml", data: []byte{0xff, 0xfe}}) }, DefaultMaxDecompressedBytes,
			func(p *Package) error { _, err := p.Manifest(); return err },
			"zip entry 'murmur.yaml' is not valid UTF-8", nil},
		{"manifest.yaml does not count", func() []byte { return makeZip(t, entry{name: "manifest.yaml", data: []byte("name: x")}) }, DefaultMaxDecompressedBytes,
			func(p *Package) error { _, err := p.Manifest(); return err },
			"artifact missing required file murmur.yaml", ErrEntryNotFound},
		{"not a zip", func() []byte { return []byte("PK\x03\x04 garbage") }, DefaultMaxDecompressedBytes, nil,
			"not a valid zip archive", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Open(tc.data(), tc.max)
			if err == nil && tc.read != nil {
				err = tc.read(p)
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v, want error containing %q", err, tc.err)
			}
			if tc.target != nil && !errors.Is(err, tc.target) {
				t.Errorf("error %v does not wrap %v", err, tc.target)
			}
		})
	}
}
