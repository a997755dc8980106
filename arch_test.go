package mur_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/mur-go/mur"

// engine are the packages that know nothing of Murmur: the component
// engine, the canonical ABI, WIT values and the WASI host. ARCHITECTURE.md
// draws the same line.
var engine = []string{
	"canon", "component", "component/internal/ast", "component/internal/binary", "component/internal/coremod", "wasip2", "wit",
}

// manifestDeps are the only module packages manifest may import: helpers
// with no runtime knowledge. manifest parses and validates; what a capsule
// may do at run time is the policy package's business.
var manifestDeps = []string{"internal/artifactname", "internal/diag", "internal/manifestio"}

// TestImportRules fails the build when a package imports across a layer
// boundary that ARCHITECTURE.md forbids.
func TestImportRules(t *testing.T) {
	imports := moduleImports(t)
	if len(imports) < len(engine) {
		t.Fatalf("found only %d packages; is the test running at the module root?", len(imports))
	}
	for pkg, deps := range imports {
		for _, dep := range deps {
			switch {
			case slices.Contains(engine, pkg) && !slices.Contains(engine, dep):
				t.Errorf("engine package %s imports %s, which belongs to Murmur's runtime", pkg, dep)
			case dep == "internal/cli" && pkg != "cmd/mur":
				t.Errorf("%s imports internal/cli: only cmd/mur may; move shared logic out of the CLI", pkg)
			case pkg == "manifest" && !slices.Contains(manifestDeps, dep):
				t.Errorf("manifest imports %s: it may import only %v; runtime decisions belong in policy", dep, manifestDeps)
			}
		}
	}
}

// moduleImports maps every package directory of the module (relative
// path) to the module packages its non-test files import. Test files are
// left out: tests may reach across layers to drive a real run.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
