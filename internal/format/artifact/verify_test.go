package artifact

import (
	"archive/zip"
	"bytes"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

func TestVerify(t *testing.T) {
	const yaml = "name: t\nversion: \"0.1.0\"\nruntime: tool\n"
	body := []byte(emptyComponent + strings.Repeat("x", 100))
	pack := func(entries ...func(*zip.Writer)) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, e := range entries {
			e(zw)
		}
		zw.Close()
		return buf.Bytes()
	}
	file := func(name, data string) func(*zip.Writer) {
		return func(zw *zip.Writer) { w, _ := zw.Create(name); w.Write([]byte(data)) }
	}
	short := func(zw *zip.Writer) {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "t.wasm", Method: zip.Store, CRC32: crc32.ChecksumIEEE(body),
			CompressedSize64: 10, UncompressedSize64: uint64(len(body))})
		w.Write(body[:10])
	}
	wrongCRC := func(zw *zip.Writer) {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "t.wasm", Method: zip.Store, CRC32: 1,
			CompressedSize64: uint64(len(body)), UncompressedSize64: uint64(len(body))})
		w.Write(body)
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		max     int64
		want    string
		wantErr error
	}{
		{"sound", pack(file(ManifestEntry, yaml), file("t.wasm", string(body))), 1 << 20, "", nil},
		{"wrong CRC", pack(file(ManifestEntry, yaml), wrongCRC), 1 << 20, "zip entry 't.wasm' is corrupt: zip: checksum error", zip.ErrChecksum},
		{"truncated", pack(file(ManifestEntry, yaml), short), 1 << 20, "zip entry 't.wasm' is corrupt", nil},
		{"over the ceiling", pack(file(ManifestEntry, yaml), file("t.wasm", string(body))), 50, "exceeds the 50-byte decompression ceiling", ErrTooLarge},
		{"unsafe name", pack(file(ManifestEntry, yaml), file("../t.wasm", "x")), 1 << 20, "has an unsafe path", ErrUnsafeEntry},
		{"no manifest", pack(file("t.wasm", string(body))), 1 << 20, "artifact missing required file murmur.yaml", nil},
		{"manifest does not parse", pack(file(ManifestEntry, "name: [\n")), 1 << 20, "package murmur.yaml does not parse", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Verify(tc.data, tc.max)
			if tc.want == "" {
				if err != nil || m.Name != "t" {
					t.Fatalf("Verify = %v, %v", m, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Verify error %v, want %q", err, tc.want)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v does not wrap %v", err, tc.wantErr)
			}
		})
	}
}
