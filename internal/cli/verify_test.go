package cli

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
)

const corruptManifest = "name: bad\nversion: \"0.1.0\"\nruntime: tool\nrequires_files: [bad.wasm]\n"

// payload is what bad.wasm should hold: a component preamble and a tail
// a flipped byte can hide in.
var payload = []byte("\x00asm\x0d\x00\x01\x00" + strings.Repeat("payload ", 64))

// corruptPackages are .mur.zip files whose manifest is intact but whose
// payload entry is damaged in the ways a disk or a transfer damages one.
func corruptPackages(t *testing.T) map[string][]byte {
	t.Helper()
	pkgs := map[string][]byte{}

	// Stored payload with one data byte flipped: only the CRC tells.
	b := writeTestZip(t, func(zw *zip.Writer) {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: "bad.wasm", Method: zip.Store})
		w.Write(payload)
	})
	i := bytes.Index(b, []byte("payload payload"))
	b[i] ^= 0x01
	pkgs["bad CRC"] = b

	// The directory promises the whole payload; only half is there.
	pkgs["truncated stored entry"] = writeTestZip(t, func(zw *zip.Writer) {
		half := payload[:len(payload)/2]
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "bad.wasm", Method: zip.Store, CRC32: crc32.ChecksumIEEE(payload),
			CompressedSize64: uint64(len(half)), UncompressedSize64: uint64(len(payload))})
		w.Write(half)
	})

	// A deflate stream cut in the middle.
	var def bytes.Buffer
	fw, _ := flate.NewWriter(&def, flate.BestSpeed)
	fw.Write(payload)
	fw.Close()
	cut := def.Bytes()[:def.Len()/2]
	pkgs["truncated deflate entry"] = writeTestZip(t, func(zw *zip.Writer) {
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "bad.wasm", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(payload),
			CompressedSize64: uint64(len(cut)), UncompressedSize64: uint64(len(payload))})
		w.Write(cut)
	})
	return pkgs
}

// writeTestZip writes murmur.yaml (corruptManifest) and then what add adds.
func writeTestZip(t *testing.T, add func(*zip.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("murmur.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(corruptManifest))
	add(zw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A corrupt package is refused by install and publish, so no registry
// holds it and no lock pins it; it used to be accepted and fail only at
// mur run.
func TestCorruptPackageIsRefused(t *testing.T) {
	for name, data := range corruptPackages(t) {
		t.Run(name, func(t *testing.T) {
			home, capsule := sandbox(t, "bad@0.1.0")
			file := filepath.Join(t.TempDir(), "bad-0.1.0.mur.zip")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			url, served := remote(t)
			for _, args := range [][]string{
				{"install", file},
				{"publish", file},
				{"publish", file, "--registry", url},
			} {
				mur(t, args...).want(t, 1, "", "zip entry 'bad.wasm' is corrupt")
			}
			for _, dir := range []string{filepath.Join(capsule, ".murmur"), filepath.Join(home, ".murmur"), filepath.Join(served, "bad")} {
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("%s exists: a store accepted the corrupt package", dir)
				}
			}
			if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); !os.IsNotExist(err) {
				t.Error("murmur.lock was written for a corrupt package")
			}
		})
	}
}

// A registry that already holds a corrupt package (digest and sidecar
// consistent, so the integrity check passes) cannot get it installed and
// pinned.
func TestInstallRefusesCorruptPackageFromRegistry(t *testing.T) {
	_, capsule := sandbox(t, "canned-tool@0.1.0")
	zip := buildExampleTool(t)
	mur(t, "publish", zip).want(t, 0, "Published canned-tool@0.1.0", "")
	home, _ := os.UserHomeDir()
	stored := filepath.Join(home, ".murmur", "artifacts", "canned-tool", "0.1.0", "canned-tool-0.1.0")
	data, err := os.ReadFile(stored + ".mur.zip")
	if err != nil {
		t.Fatal(err)
	}
	corruptLastEntry(t, data)
	os.WriteFile(stored+".mur.zip", data, 0o644)
	os.WriteFile(stored+".sha256", []byte(artifact.SHA256Hex(data)), 0o644)

	for _, args := range [][]string{{"install", "canned-tool@0.1.0"}, {"install"}} {
		mur(t, args...).wantOutput(t, 1, "zip entry 'canned_tool.wasm' is corrupt")
		if _, err := os.Stat(filepath.Join(capsule, ".murmur")); !os.IsNotExist(err) {
			t.Errorf("%v wrote the project store", args)
		}
		if _, err := os.Stat(filepath.Join(capsule, lockfile.FileName)); !os.IsNotExist(err) {
			t.Errorf("%v pinned the corrupt package in murmur.lock", args)
		}
	}
}

// corruptLastEntry flips a byte in the middle of the archive's last entry's
// data, leaving the directory intact.
func corruptLastEntry(t *testing.T, data []byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	f := zr.File[len(zr.File)-1]
	off, err := f.DataOffset()
	if err != nil {
		t.Fatal(err)
	}
	data[off+int64(f.CompressedSize64)/2] ^= 0xff
}

// mur build refuses a payload that is not a component, naming the file and
// what it holds, and writes nothing.
func TestBuildRefusesPayloadThatIsNotAComponent(t *testing.T) {
	for _, tc := range []struct {
		name, wasm, want string
	}{
		{"random bytes", "\x8f\x13 not wasm at all", "bad.wasm is not a WebAssembly component: it does not start with the WebAssembly magic"},
		{"core module", "\x00asm\x01\x00\x00\x00", "bad.wasm is not a WebAssembly component: it is a core module, not a component\n  hint: wrap it with 'wasm-tools component new'"},
		{"damaged component", "\x00asm\x0d\x00\x01\x00\x07\x05\x01", "bad.wasm is not a valid WebAssembly component"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sandbox(t)
			src := t.TempDir()
			os.WriteFile(filepath.Join(src, "murmur.yaml"), []byte(corruptManifest), 0o644)
			os.WriteFile(filepath.Join(src, "bad.wasm"), []byte(tc.wasm), 0o644)
			out := t.TempDir()
			mur(t, "build", src, "-o", out).want(t, 1, "", "error[E-BLD-003]: "+tc.want)
			if ents, _ := os.ReadDir(out); len(ents) != 0 {
				t.Errorf("mur build wrote %v", ents)
			}
		})
	}
}
