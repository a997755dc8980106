package artifact

import (
	"archive/zip"
	"bytes"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/manifestio"
)

// rawZip stores one murmur.yaml entry whose header claims size bytes.
func rawZip(t *testing.T, content []byte, size uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: ManifestEntry, Method: zip.Store, CRC32: crc32.ChecksumIEEE(content),
		CompressedSize64: uint64(len(content)), UncompressedSize64: size})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(content)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPackageManifestIsCapped(t *testing.T) {
	small := []byte("name: t\nversion: \"1\"\nruntime: tool\n")
	big := []byte("name: t\ndescription: " + strings.Repeat("x", 2<<20) + "\n")
	cases := []struct {
		name string
		zip  []byte
		want string // "" accepted
	}{
		{"small", rawZip(t, small, uint64(len(small))), ""},
		// Refused from the header alone: the content is tiny.
		{"header claims 2 MiB", rawZip(t, small, 2<<20), "murmur.yaml in the package is too large (2097152 bytes, over 1 MiB)"},
		{"honest 2 MiB", makeZip(t, entry{name: ManifestEntry, data: big}), "is too large"},
		// The header lies small: inflating still stops at the cap.
		{"header claims 10 bytes", rawZip(t, big, 10), "zip entry 'murmur.yaml'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pkg, err := Open(tc.zip, DefaultMaxDecompressedBytes)
			if err != nil {
				t.Fatal(err)
			}
			b, err := pkg.Manifest()
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %d bytes, %v; want %q", len(b), err, tc.want)
			}
		})
	}
}

func TestParseManifestIsCapped(t *testing.T) {
	_, err := ParseManifest([]byte("name: t\ndescription: " + strings.Repeat("x", 2<<20) + "\n"))
	var se *manifestio.SizeError
	if !errors.As(err, &se) {
		t.Fatalf("%v", err)
	}
}
