package cli

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
)

// bigManifest is a valid artifact manifest of 2 MiB: the size cap, not
// the parser, must refuse it.
func bigManifest(name string) []byte {
	head := "name: " + name + "\nversion: \"1.0.0\"\nruntime: tool\nrequires_files:\n  - tool.wasm\ndescription: "
	return []byte(head + strings.Repeat("x", 2<<20-len(head)-1) + "\n")
}

// bigPackage writes a .mur.zip whose murmur.yaml entry inflates to 2 MiB
// (it compresses to a few kilobytes).
func bigPackage(t *testing.T, dir, name string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for entry, data := range map[string][]byte{"murmur.yaml": bigManifest(name), "tool.wasm": testWasm(t)} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: entry, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, artifact.FileName(name, "1.0.0", nil))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func testWasm(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(examplePath(t, "canned-tool"), "canned_tool.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantNothingUnder fails if anything exists at the paths.
func wantNothingUnder(t *testing.T, what string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s wrote %s", what, p)
		}
	}
}

func TestBuildRefusesAnOversizedManifest(t *testing.T) {
	sandbox(t)
	src, out := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(src, "murmur.yaml"), bigManifest("big"), 0o644)
	os.WriteFile(filepath.Join(src, "tool.wasm"), testWasm(t), 0o644)
	mur(t, "build", src, "-o", out).want(t, 1, "", "murmur.yaml is too large (2097152 bytes, over 1 MiB)")
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("build wrote %v", ents)
	}
}

func TestPublishRefusesAnOversizedManifest(t *testing.T) {
	home, _ := sandbox(t)
	pkg := bigPackage(t, t.TempDir(), "big")
	url, dir := remote(t)
	for _, args := range [][]string{{"publish", pkg}, {"publish", pkg, "--registry", url}} {
		mur(t, args...).want(t, 1, "", "error[E-IO-003]: murmur.yaml in "+pkg+" is too large (2097152 bytes, over 1 MiB)")
	}
	wantNothingUnder(t, "publish", filepath.Join(home, ".murmur"), filepath.Join(dir, "big"))
}

func TestInstallRefusesAnOversizedManifest(t *testing.T) {
	home, capsule := sandbox(t, "big@1.0.0")
	pkg := bigPackage(t, t.TempDir(), "big")
	// From a file, and from a registry that already holds such a package
	// (the global store, written as a publish from elsewhere would).
	mur(t, "install", pkg).want(t, 1, "", "murmur.yaml in "+pkg+" is too large")
	store := filepath.Join(home, ".murmur", "artifacts", "big", "1.0.0")
	os.MkdirAll(store, 0o755)
	data, _ := os.ReadFile(pkg)
	os.WriteFile(filepath.Join(store, "big-1.0.0.mur.zip"), data, 0o644)
	os.WriteFile(filepath.Join(store, "big-1.0.0.sha256"), []byte(artifact.SHA256Hex(data)+"\n"), 0o644)
	mur(t, "install", "big@1.0.0").want(t, 1, "", "murmur.yaml in big@1.0.0 is too large")
	// The whole-capsule install reports per-artifact failures on stdout, as Murmur does.
	mur(t, "install").want(t, 1, "murmur.yaml in big@1.0.0 is too large", "")
	wantNothingUnder(t, "install", filepath.Join(capsule, ".murmur"), filepath.Join(capsule, lockfile.FileName))
}

// A capsule's own murmur.yaml is capped for install (which reads its
// artifacts list) and for run.
func TestCapsuleCommandsRefuseAnOversizedManifest(t *testing.T) {
	_, capsule := sandbox(t)
	big := "name: demo\nversion: \"0.1.0\"\ndescription: " + strings.Repeat("x", 2<<20) + "\n"
	os.WriteFile(filepath.Join(capsule, "murmur.yaml"), []byte(big), 0o644)
	path := filepath.Join(capsule, "murmur.yaml")
	mur(t, "install").want(t, 1, "", fmt.Sprintf("%s is too large (%d bytes, over 1 MiB)", path, len(big)))
	stdout, stderr, code := runIn(t, capsule)
	if code != exitFailure || !strings.Contains(stderr+stdout, path+" is too large") {
		t.Errorf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	wantNothingUnder(t, "a refused command", filepath.Join(capsule, ".murmur"), filepath.Join(capsule, lockfile.FileName), filepath.Join(capsule, "workdir"))
}

// Staging reads each declared artifact's manifest from its package under
// the same cap: a package already in the project store and pinned in
// murmur.lock (as an install by an older mur would leave it) stops the
// run before a session starts.
func TestRunRefusesAnArtifactWithAnOversizedManifest(t *testing.T) {
	_, capsule := sandbox(t, "big@1.0.0")
	store := filepath.Join(capsule, ".murmur", "artifacts", "big", "1.0.0")
	os.MkdirAll(store, 0o755)
	pkg := bigPackage(t, store, "big")
	data, _ := os.ReadFile(pkg)
	os.WriteFile(filepath.Join(store, "big-1.0.0.sha256"), []byte(artifact.SHA256Hex(data)+"\n"), 0o644)
	lock := "lock_version: 1\nartifacts:\n- name: big\n  resolved_version: 1.0.0\n  sha256:\n    wasm: " + artifact.SHA256Hex(data) + "\n"
	os.WriteFile(filepath.Join(capsule, lockfile.FileName), []byte(lock), 0o644)
	os.WriteFile(filepath.Join(capsule, "capsule.wasm"), testWasm(t), 0o644)
	stdout, stderr, code := runIn(t, capsule)
	if code != exitFailure || !strings.Contains(stderr, "murmur.yaml in the package is too large (2097152 bytes, over 1 MiB)") {
		t.Errorf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(capsule, lockfile.FileName)); string(b) != lock {
		t.Errorf("run changed the lock:\n%s", b)
	}
	wantNothingUnder(t, "a refused run", filepath.Join(capsule, "workdir"))
}
