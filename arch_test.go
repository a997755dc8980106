package mur_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
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
	"engine/canon", "engine/component", "engine/component/internal/ast", "engine/component/internal/binary", "engine/component/internal/coremod", "engine/diskmemo", "engine/component/internal/memory", "engine/component/internal/plan", "engine/component/internal/storelife", "engine/component/internal/validate", "engine/wasip2", "engine/wit",
}

// manifestDeps are the only module packages manifest may import: helpers
// with no runtime knowledge. manifest parses and validates; what a capsule
// may do at run time is the policy package's business.
var manifestDeps = []string{"internal/base/artifactname", "internal/base/diag", "internal/base/manifestio"}

// runners are the packages that run tools or talk to peers (A2A peers,
// MCP servers). The WIT bindings in host hand calls to them; nothing
// below the bindings reaches back up.
var runners = []string{"internal/tools", "internal/remote/a2a", "internal/remote/mcp"}

// sessionCallers are the only packages that may run a whole session: the
// CLI, the public embedding API, mur eval run's cases and mur worker's
// tasks. Everything else is below the pipeline it drives.
var sessionCallers = []string{"internal/cli", "capsule", "internal/eval", "internal/cluster/worker"}

// hostDeps are the only module packages host may import: the engine it
// binds to and the runners it hands calls to. It stages, installs and
// dials nothing itself.
var hostDeps = []string{"engine/component", "engine/wasip2", "engine/wit", "internal/tools", "internal/remote/a2a"}

// topLevel is what no runtime package below the CLI may import.
var topLevel = []string{"internal/cli", "capsule", "internal/session"}

// layers are the runtime's rows in ARCHITECTURE.md, top first: a package
// may import only packages on rows below its own (and the engine).
var layers = [][]string{
	{"cmd/mur"},
	{"internal/cli", "capsule"},
	{"internal/eval", "internal/cluster/worker"},
	{"internal/session", "internal/doctor", "internal/traceview", "internal/timeline", "internal/serve/cluster"},
	{"internal/agent/hooks", "internal/serve/a2a"},
	{"internal/launch", "internal/agent"},
	{"internal/agent/process"},
	{"internal/host"},
	{"internal/remote/mcp"},
	{"internal/tools", "internal/stage", "internal/resources", "internal/remote/a2a", "internal/serve/mcp", "internal/cluster/queue", "internal/cluster/embedded"},
	{"internal/sandbox"},
	{"internal/agent/transcript", "internal/telemetry"},
	{"internal/agent/trace", "internal/agent/tokens", "internal/agent/inference", "internal/agent/observe"},
	{"internal/store/provision"},
	{"internal/store/install", "internal/policy", "internal/store/firstparty", "internal/store/search", "internal/store/oci", "internal/store/github"},
	{"internal/store/registry"},
	{"internal/format/artifact", "internal/format/lockfile"},
	{"internal/format/manifest"},
	{"internal/base/jsonline"},
	{"internal/base/manifestio", "internal/base/artifactname", "internal/base/confined", "internal/base/running", "internal/base/redact", "internal/base/httpbound", "internal/base/termtext"},
	{"internal/base/diag"},
}

// unlayered are the module's packages that are not part of the runtime:
// test guests and their helpers, examples, benchmarks.
var unlayered = []string{"guests", "guests/", "examples/", "bench/", "internal/testing/testguest", "internal/testing/mockprovider", "internal/testing/cgrouptest", "internal/testing/otlpreceiver", "internal/testing/ociregistry", "internal/testing/ghreleases", "internal/testing/natstest", "internal/testing/a2atask", "."}

// TestLayers fails when a package imports one on its own row or a row
// above, or when a runtime package is on no row at all: ARCHITECTURE.md's
// picture and the tree must stay the same.
func TestLayers(t *testing.T) {
	row := map[string]int{}
	for i, r := range layers {
		for _, p := range r {
			row[p] = i
		}
	}
	for pkg, deps := range moduleImports(t) {
		if slices.Contains(engine, pkg) || slices.ContainsFunc(unlayered, func(u string) bool {
			return pkg == u || (strings.HasSuffix(u, "/") && strings.HasPrefix(pkg, u))
		}) {
			continue
		}
		r, ok := row[pkg]
		if !ok {
			t.Errorf("package %s is on no row: add it to ARCHITECTURE.md's layers and to layers here", pkg)
			continue
		}
		for _, dep := range deps {
			if d, ok := row[dep]; ok && d <= r {
				t.Errorf("%s (row %d) imports %s (row %d): a package may import only rows below its own", pkg, r, dep, d)
			}
		}
	}
}

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
			case dep == "capsule" && strings.HasPrefix(pkg, "internal/"):
				t.Errorf("%s imports capsule: the public API is a facade over the runtime, which never calls it; share logic below it (internal/session, internal/store/provision)", pkg)
			case pkg == "internal/format/manifest" && !slices.Contains(manifestDeps, dep):
				t.Errorf("manifest imports %s: it may import only %v; runtime decisions belong in policy", dep, manifestDeps)
			case dep == "internal/session" && !slices.Contains(sessionCallers, pkg):
				t.Errorf("%s imports session: only %v may run a whole session", pkg, sessionCallers)
			case slices.Contains(runners, pkg) && (dep == "internal/host" || dep == "internal/launch" || slices.Contains(topLevel, dep)):
				t.Errorf("runner package %s imports %s: tools and a2a sit below the host bindings and the run pipeline", pkg, dep)
			case pkg == "internal/host" && !slices.Contains(hostDeps, dep):
				t.Errorf("host imports %s: the WIT bindings may import only %v; runners and clients live in tools and a2a", dep, hostDeps)
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
			// A module of its own (third_party's patched copies) is not
			// this module's package.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != "." && err == nil {
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

// hostRunners are the runner constructors and types of package tools.
// host may name the Tool interface and its values, but building a runner
// is the run pipeline's job (launch), so host can never choose how a tool
// is isolated.
var hostRunners = []string{"WasmTool", "NewWasmTool", "WasmToolConfig", "NativeTool", "SkillTool", "RegistryPuller", "SubprocessEnv"}

// TestHostBuildsNoRunner fails when host's non-test code names a runner of
// package tools.
func TestHostBuildsNoRunner(t *testing.T) {
	fset := token.NewFileSet()
	for _, f := range parseSources(t, fset, filepath.Join("internal", "host")) {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "tools" && slices.Contains(hostRunners, sel.Sel.Name) {
				t.Errorf("%s: host uses tools.%s; runners are built by the run pipeline, not the WIT bindings", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}

// trampolineDeps are the only module packages sandbox may reach, directly
// or not: its init starts the trampoline once they are initialised, so a
// dependency on the engine or the CLI's stacks would put their start-up
// back into every native spawn.
var trampolineDeps = []string{"internal/policy", "internal/format/manifest", "internal/base/diag", "internal/base/manifestio", "internal/base/artifactname"}

func TestTrampolineStaysLean(t *testing.T) {
	imports := moduleImports(t)
	seen := map[string]bool{}
	var walk func(pkg string)
	walk = func(pkg string) {
		for _, dep := range imports[pkg] {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if !slices.Contains(trampolineDeps, dep) {
				t.Errorf("sandbox reaches %s (through %s): the trampoline may depend only on %v", dep, pkg, trampolineDeps)
			}
			walk(dep)
		}
	}
	walk("internal/sandbox")
}

// topDirs are the tree's top-level directories, as ARCHITECTURE.md draws
// them: the command, the public packages (the embedding API capsule/ and
// the engine), the runtime under internal/, what is not part of the
// binary, and third_party/ (patched copies of dependencies, each a module
// of its own that go.mod replaces).
var topDirs = []string{"bench", "capsule", "cmd", "conformance", "engine", "examples", "guests", "internal", "third_party"}

// TestTopLevelDirectories fails when a directory appears at the top of
// the tree that ARCHITECTURE.md does not draw: a new package belongs in
// one of its groups.
func TestTopLevelDirectories(t *testing.T) {
	entries, err := fs.ReadDir(os.DirFS("."), ".")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		// bin/ is where the README's command builds mur (.gitignore).
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "bin" {
			got = append(got, e.Name())
		}
	}
	if !slices.Equal(got, topDirs) {
		t.Errorf("top-level directories are %v, want %v (ARCHITECTURE.md); put a new package in one of the groups", got, topDirs)
	}
}

// TestCapsuleAPIHidesInternal fails when an exported name of the public
// embedding API mentions a type of an internal package: a field, a
// parameter, a result or an alias of one would make the runtime's
// internals part of what embedders compile against. Function bodies may
// use the runtime freely; that is what the facade is for.
func TestCapsuleAPIHidesInternal(t *testing.T) {
	fset := token.NewFileSet()
	for _, f := range parseSources(t, fset, "capsule") {
		internal := map[string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains(p, "/internal/") {
				continue
			}
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			internal[name] = p
		}
		leaks := func(what string, n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
					t.Errorf("%s: %s exposes %s.%s from %s: wrap it in a type of package capsule", fset.Position(sel.Pos()), what, id.Name, sel.Sel.Name, internal[id.Name])
				}
				return true
			})
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
					leaks(d.Name.Name, d.Type)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							leaks(s.Name.Name, exportedPart(s.Type))
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								if s.Type != nil {
									leaks(n.Name, s.Type)
								}
								for _, v := range s.Values {
									leaks(n.Name, v)
								}
							}
						}
					}
				}
			}
		}
	}
}

// exportedRecv reports whether a method's receiver is an exported type.
func exportedRecv(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedPart is a type expression with a struct's unexported fields
// left out: what an embedder can name.
func exportedPart(typ ast.Expr) ast.Node {
	st, ok := typ.(*ast.StructType)
	if !ok {
		return typ
	}
	var fields []*ast.Field
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 || slices.ContainsFunc(f.Names, (*ast.Ident).IsExported) {
			fields = append(fields, f)
		}
	}
	return &ast.StructType{Fields: &ast.FieldList{List: fields}}
}

// parseSources parses the non-test Go files of dir, a package directory
// relative to the module root.
func parseSources(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no sources in %s (%v); is the test running at the module root?", dir, err)
	}
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
