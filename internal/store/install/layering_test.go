package install_test

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/mur-go/mur/"

// imports lists the module packages dir imports, transitively (tests
// excluded).
func imports(t *testing.T, dir string, seen map[string]bool) {
	t.Helper()
	p, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		rel, ok := strings.CutPrefix(imp, module)
		if !ok || seen[rel] {
			continue
		}
		seen[rel] = true
		imports(t, filepath.Join("..", "..", "..", filepath.FromSlash(rel)), seen)
	}
}

// TestLayering: install is Murmur-aware but sits below its callers, and
// the engine knows nothing of packaging.
func TestLayering(t *testing.T) {
	seen := map[string]bool{}
	imports(t, ".", seen)
	if !seen["internal/store/registry"] || !seen["internal/format/lockfile"] {
		t.Fatalf("the import walk missed install's own imports: %v", seen)
	}
	for _, bad := range []string{"internal/stage", "internal/launch", "internal/host", "internal/tools", "internal/remote/a2a", "internal/session", "internal/cli"} {
		if seen[bad] {
			t.Errorf("install imports %s", bad)
		}
	}
	for _, engine := range []string{"component", "canon", "wit", "wasip2"} {
		deps := map[string]bool{}
		imports(t, filepath.Join("..", "..", "..", "engine", engine), deps)
		if deps["internal/store/install"] {
			t.Errorf("%s imports install", engine)
		}
	}
}
