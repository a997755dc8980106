package binary

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// fixtureFiles lists the checked-in fixtures plus whatever the guest build
// has produced under guests/out.
func fixtureFiles(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"testdata/*.wasm", "../../../../guests/out/*.wasm"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// indexSpaces walks c.Defs in order the way a linker would and returns
// each index space's definitions.
func indexSpaces(c *ast.Component) map[ast.Sort][]ast.Def {
	spaces := map[ast.Sort][]ast.Def{}
	for _, d := range c.Defs {
		if s, ok := ast.DefSort(d); ok {
			spaces[s] = append(spaces[s], d)
		}
	}
	return spaces
}

// checkNames verifies that every index named by the name section exists
// in the index spaces DefSort builds, recursively.
func checkNames(t *testing.T, where string, c *ast.Component) {
	spaces := indexSpaces(c)
	if c.Names != nil {
		for sort, m := range c.Names.Names {
			for i, name := range m {
				if int(i) >= len(spaces[sort]) {
					t.Errorf("%s: name %q for %s %d, but only %d defined", where, name, sort, i, len(spaces[sort]))
				}
			}
		}
	}
	for i, d := range spaces[ast.SortComponent] {
		if n, ok := d.(*ast.NestedComponent); ok {
			checkNames(t, fmt.Sprintf("%s/component %d", where, i), n.Component)
		}
	}
}

func TestDecodeFixtures(t *testing.T) {
	files := fixtureFiles(t)
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) >= 8 && data[6] == 0 {
				t.Skip("core module, not a component")
			}
			c, err := DecodeComponent(data)
			if err != nil {
				t.Fatal(err)
			}
			checkNames(t, f, c)
		})
	}
}

// TestKitchenIndexSpaces cross-checks the index spaces built from the
// decoded kitchen.wat against the names wasm-tools recorded for them.
func TestKitchenIndexSpaces(t *testing.T) {
	data, err := os.ReadFile("testdata/kitchen.wasm")
	if err != nil {
		t.Fatal(err)
	}
	c, err := DecodeComponent(data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Names == nil || c.Names.Component != "kitchen" {
		t.Fatalf("component name section: %+v", c.Names)
	}
	spaces := indexSpaces(c)
	named := func(sort ast.Sort, name string) ast.Def {
		t.Helper()
		for i, n := range c.Names.Names[sort] {
			if n == name {
				return spaces[sort][i]
			}
		}
		t.Fatalf("no %s named %q", sort, name)
		return nil
	}

	if a, ok := named(ast.SortFunc, "log").(*ast.Alias); !ok || a.Name != "log" || a.Kind != ast.AliasInstanceExport {
		t.Errorf("func $log: %s", dump(a))
	}
	if cn, ok := named(ast.SortCoreFunc, "log_lowered").(*ast.Canon); !ok || cn.Kind != ast.CanonLower ||
		cn.Options.StringEncoding != ast.StringUTF16 || cn.Options.Memory == nil || cn.Options.Realloc == nil {
		t.Errorf("core func $log_lowered: %s", dump(cn))
	}
	if cn, ok := named(ast.SortCoreFunc, "res_drop").(*ast.Canon); !ok || cn.Kind != ast.CanonResourceDrop {
		t.Errorf("core func $res_drop: %s", dump(cn))
	}
	if cn, ok := named(ast.SortFunc, "run").(*ast.Canon); !ok || cn.Kind != ast.CanonLift || cn.Options.PostReturn == nil {
		t.Errorf("func $run: %s", dump(cn))
	}
	if cn, ok := named(ast.SortFunc, "greet").(*ast.Canon); !ok || cn.Options.StringEncoding != ast.StringLatin1UTF16 {
		t.Errorf("func $greet: %s", dump(cn))
	}
	if ty, ok := named(ast.SortType, "mine").(*ast.Type); !ok {
		t.Errorf("type $mine: %s", dump(ty))
	} else if rt, ok := ty.Type.(*ast.ResourceType); !ok || rt.Dtor == nil {
		t.Errorf("type $mine: %s", dump(ty))
	} else if dtor := spaces[ast.SortCoreFunc][*rt.Dtor]; c.Names.Names[ast.SortCoreFunc][*rt.Dtor] != "dtorf" {
		t.Errorf("dtor is core func %d (%s)", *rt.Dtor, dump(dtor))
	}
	if _, ok := named(ast.SortComponent, "inner").(*ast.NestedComponent); !ok {
		t.Error("component $inner is not a nested component")
	}
	if a, ok := named(ast.SortCoreModule, "mem_again").(*ast.Alias); !ok || a.Kind != ast.AliasOuter || a.Count != 0 {
		t.Errorf("core module $mem_again: %s", dump(a))
	}
	if _, ok := named(ast.SortInstance, "exp").(*ast.InstanceExports); !ok {
		t.Error("instance $exp is not built from exports")
	}
	if _, ok := named(ast.SortCoreInstance, "hosti").(*ast.CoreInstanceExports); !ok {
		t.Error("core instance $hosti is not built from exports")
	}
	var exports []string
	for _, d := range c.Defs {
		if e, ok := d.(*ast.Export); ok {
			exports = append(exports, e.Sort.String()+" "+e.Name)
		}
	}
	want := "[func run func greet instance inst type mine core module mod component comp]"
	if got := dump(exports); got != want {
		t.Errorf("exports %s, want %s", got, want)
	}
}
