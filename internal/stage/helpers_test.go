package stage

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// fixture is a project dir with a project store and a global store under
// a fake HOME, nothing else.
type fixture struct {
	t       *testing.T
	project string
	home    string
	local   *registry.Local // project store
	global  *registry.Local
	comp    *countingCompiler
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, project: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), comp: &countingCompiler{}}
	for _, d := range []string{f.project, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.local = registry.NewLocal(registry.ProjectRoot(f.project), nil)
	f.global = registry.NewLocal(filepath.Join(f.home, ".murmur", "artifacts"), nil)
	return f
}

func (f *fixture) getenv(k string) string {
	if k == "HOME" {
		return f.home
	}
	return ""
}

// countingCompiler stands in for the engine where the payload is not a
// real component; it records how often it was asked.
type countingCompiler struct{ n atomic.Int32 }

func (c *countingCompiler) Compile(context.Context, []byte) (*component.Component, error) {
	c.n.Add(1)
	return &component.Component{}, nil
}

// publish puts a package into a store and returns its sha256.
func (f *fixture) publish(store *registry.Local, name, version string, typ artifact.RuntimeType, role string, data []byte, plat *artifact.Platform) string {
	f.t.Helper()
	meta := artifact.Meta{Name: name, Version: version, Runtime: typ, ArtifactRuntime: role}
	if plat != nil {
		meta.Platforms = []artifact.Platform{*plat}
	}
	p, err := store.Publish(context.Background(), meta, data)
	if err != nil {
		f.t.Fatal(err)
	}
	return p.SHA256
}

// wasmTool publishes a wasm tool whose payload is opaque bytes (compiled
// by countingCompiler).
func (f *fixture) wasmTool(store *registry.Local, name, version, extra string) string {
	f.t.Helper()
	y := "name: " + name + "\nversion: \"" + version + "\"\nruntime: tool\nrequires_files: [" + name + ".wasm]\n" + extra
	return f.publish(store, name, version, artifact.Wasm, "tool", testguest.Zip(f.t, "murmur.yaml", y, name+".wasm", "\x00asm-fake"), nil)
}

// capsule writes murmur.yaml into the project and parses it.
func (f *fixture) capsule(yaml string) *manifest.File {
	f.t.Helper()
	path := filepath.Join(f.project, "murmur.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		f.t.Fatal(err)
	}
	m, _, err := manifest.Parse([]byte(yaml), path, manifest.ParseOptions{Role: manifest.RoleCapsule, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

// options are the defaults a test starts from.
func (f *fixture) options(m *manifest.File) Options {
	return Options{
		Manifest: m,
		Compiler: f.comp,
		Getenv:   f.getenv,
		Cwd:      f.project,
		Clock:    func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) },
	}
}

// tree lists every path under dir (relative, sorted), to compare before
// and after a refused stage.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// codeOf is the diagnostic code of err, or "".
func codeOf(err error) diag.Code {
	var d *diag.Error
	if errors.As(err, &d) {
		return d.Code
	}
	return ""
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
