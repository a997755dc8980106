package agentexample

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// built is what every test's setUp starts from, made once per test
// process: the mur binary and the artifact packages mur build packed
// from the example's sources. Each is only read afterwards (a test that
// needs the binary elsewhere copies it); every test still installs them
// into a project and HOME of its own. Building per test cost each one a
// link of mur, one of the fingerprint tool and three mur builds.
type built struct {
	once sync.Once
	dir  string
	bin  string
	pkgs []string
	err  error
}

// shared is the test process's build; TestMain removes it at the end.
var shared built

func (b *built) get() (bin string, pkgs []string, err error) {
	b.once.Do(func() { b.err = b.build() })
	return b.bin, b.pkgs, b.err
}

func (b *built) remove() {
	if b.dir != "" {
		_ = os.RemoveAll(b.dir)
	}
}

func (b *built) build() error {
	repo, err := filepath.Abs("../..")
	if err != nil {
		return err
	}
	if b.dir, err = os.MkdirTemp("", "mur-example-build-"); err != nil {
		return err
	}
	cache, err := testguest.CacheDir()
	if err != nil {
		return err
	}
	b.bin = filepath.Join(b.dir, "mur")
	src := filepath.Join(b.dir, "src")
	for out, pkg := range map[string]string{b.bin: "./cmd/mur", filepath.Join(src, "fingerprint", "bin", "fingerprint"): "./examples/agent/tools/fingerprint"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	// Each artifact directory as publish.sh packs it: its murmur.yaml and
	// the files it requires.
	artifacts := []struct{ dir, name, file, from string }{
		{"drivers/scripted", "scripted", "scripted.wasm", testguest.Path(testguest.ScriptedGo)},
		{"tools/word-stats", "word-stats", "word-stats.wasm", "tools/word-stats/word-stats.wasm"},
		{"tools/fingerprint", "fingerprint", "", ""},
	}
	pkgs := filepath.Join(b.dir, "pkgs")
	if err := os.Mkdir(pkgs, 0o755); err != nil {
		return err
	}
	for _, a := range artifacts {
		dir := filepath.Join(src, a.name)
		if err := copyTo(filepath.Join(a.dir, "murmur.yaml"), filepath.Join(dir, "murmur.yaml")); err != nil {
			return err
		}
		if a.file != "" {
			if err := copyTo(a.from, filepath.Join(dir, a.file)); err != nil {
				return err
			}
		}
		cmd := exec.Command(b.bin, "build", dir, "-o", pkgs)
		cmd.Dir = b.dir
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(b.dir, "home"), "MUR_CACHE_DIR=" + cache}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("mur build %s: %v\n%s", dir, err, out)
		}
	}
	zips, _ := filepath.Glob(filepath.Join(pkgs, "*.mur.zip"))
	if len(zips) != len(artifacts) {
		return fmt.Errorf("mur build made %v, want one package per artifact", zips)
	}
	b.pkgs = zips
	return nil
}

// copyTo copies the file at from to to, making to's directory.
func copyTo(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o755)
}
