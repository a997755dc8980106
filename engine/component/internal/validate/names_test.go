package validate

import (
	"errors"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/binary"
)

func TestIsLabel(t *testing.T) {
	tests := []struct {
		s  string
		ok bool
	}{
		{"a", true}, {"a-b-c", true}, {"a1-2-3", true}, {"A", true}, {"A-B-C", true}, {"A1-2-3", true},
		{"a11-w0rds", true}, {"A11-4CR0NYMS", true}, {"m1x3d-4CR0NYMS", true}, {"is-XML", true},
		{"", false}, {"1-2-3", false}, {"Ab", false}, {"a--b", false}, {"-a", false}, {"a-", false},
		{"a_b", false}, {"a.b", false}, {"ünï", false}, {"a b", false},
	}
	for _, tt := range tests {
		if got := isLabel(tt.s); got != tt.ok {
			t.Errorf("isLabel(%q) = %v, want %v", tt.s, got, tt.ok)
		}
	}
}

func TestParseExternName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
		want externName
	}{
		{"foo", true, externName{}},
		{"get-JSON", true, externName{}},
		{"[constructor]r", true, externName{annotation: "constructor", resource: "r"}},
		{"[method]my-res.do-it", true, externName{annotation: "method", resource: "my-res"}},
		{"[static]r.make", true, externName{annotation: "static", resource: "r"}},
		{"wasi:http/handler", true, externName{iface: true}},
		{"wasi:io/streams@0.2.6", true, externName{iface: true, version: "0.2.6"}},
		{"a:b/c@1.0.0-rc.1+build.5", true, externName{iface: true, version: "1.0.0-rc.1+build.5"}},
		{"murmur:tool/run@0.2.0", true, externName{iface: true, version: "0.2.0"}},
		{"[method]r", false, externName{}},
		{"[method]r.", false, externName{}},
		{"[constructor]R_x", false, externName{}},
		{"[async]f", false, externName{}},
		{"[bogus]f", false, externName{}},
		{"[method", false, externName{}},
		{"wasi:io", false, externName{}},
		{"wasi/io", false, externName{}},
		{"WASI:io/streams", false, externName{}},
		{"wasi:IO/streams", false, externName{}},
		{"wasi:io/Streams-X", false, externName{}},
		{"a:b:c/d", false, externName{}},
		{"a:b/c/d", false, externName{}},
		{"a:b/c@1.0", false, externName{}},
		{"a:b/c@01.0.0", false, externName{}},
		{"a:b/c@1.0.0-01", false, externName{}},
		{"a:b/c@1.0.0-", false, externName{}},
		{"a:b/c@", false, externName{}},
	}
	for _, tt := range tests {
		got, msg := parseExternName(tt.name)
		if (msg == "") != tt.ok {
			t.Errorf("%q: message %q, want ok=%v", tt.name, msg, tt.ok)
			continue
		}
		if tt.ok && got != tt.want {
			t.Errorf("%q: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestCanonVersion(t *testing.T) {
	for v, ok := range map[string]bool{"1": true, "12": true, "0.2": true, "0.0.3": true, "0.0.0": true,
		"0": false, "01": false, "1.2": false, "0.0": false, "0.2.1": false, "0.02": false, "": false} {
		if isCanonVersion(v) != ok {
			t.Errorf("isCanonVersion(%q) = %v", v, !ok)
		}
	}
}

// The examples of strong uniqueness in Explainer.md, "Name Uniqueness".
func TestStrongUniqueness(t *testing.T) {
	unique := []string{"foo", "foo-bar", "[constructor]foo", "[method]foo.bar", "[static]foo.baz", "foo:bar/baz"}
	set := nameSet{}
	for _, n := range unique {
		if err := set.add(n, "import", 1); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	for _, n := range []string{"foo", "FOO", "foo-BAR", "[constructor]FOO", "[method]foo.BAR", "[static]foo.bar",
		"[method]foo.baz", "[method]foo.foo", "[static]foo-BAR.FOO-bar", "foo:bar/BAZ"} {
		err := set.add(n, "import", 1)
		var ve *Error
		if !errors.As(err, &ve) || ve.Rule != ruleUnique {
			t.Errorf("%s: got %v, want a %s error", n, err, ruleUnique)
		}
	}
}

// Rules the text format cannot express, checked on a decoded tree.
func TestStructureRulesWithoutText(t *testing.T) {
	tests := []struct {
		name string
		c    *ast.Component
		rule string
		// unsupported: a *binary.NotSupportedError is expected instead.
		unsupported bool
	}{
		{
			name: "export of a core function",
			c:    &ast.Component{Defs: []ast.Def{&ast.Export{Name: "f", Sort: ast.SortCoreFunc, Offset: 9}}},
			rule: ruleExportSort,
		},
		{
			name: "version suffix on a plain name",
			c: &ast.Component{Defs: []ast.Def{&ast.Import{Name: "f", Attrs: ast.NameAttrs{VersionSuffix: ".1"},
				Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}, Offset: 9}}},
			rule: ruleSuffix,
		},
		{
			name: "version suffix making an invalid semver",
			c: &ast.Component{Defs: []ast.Def{&ast.Import{Name: "a:b/c@0.2", Attrs: ast.NameAttrs{VersionSuffix: ".1.1"},
				Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}, Offset: 9}}},
			rule: ruleSuffix,
		},
		{
			name: "async function name",
			c: &ast.Component{Defs: []ast.Def{&ast.Import{Name: "[async]f",
				Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}, Offset: 9}}},
			unsupported: true,
		},
		{
			name: "map with a float key",
			c:    &ast.Component{Defs: []ast.Def{&ast.Type{Type: &ast.Map{Key: ast.ValType{Prim: ast.PrimF32}, Value: ast.ValType{Prim: ast.PrimU8}}, Offset: 9}}},
			rule: ruleMapKey,
		},
		{
			name: "fixed-length list of 2^28 bytes",
			c: &ast.Component{Defs: []ast.Def{
				&ast.Type{Type: &ast.List{Elem: ast.ValType{Prim: ast.PrimU8}, Len: 1 << 27}, Offset: 5},
				&ast.Type{Type: &ast.Tuple{Types: []ast.ValType{{Idx: 0}, {Idx: 0}}}, Offset: 9},
			}},
			rule: ruleMaxSize,
		},
		{
			name: "implements on a type",
			c: &ast.Component{Defs: []ast.Def{&ast.Import{Name: "store", Attrs: ast.NameAttrs{Implements: "a:b/c", HasImplements: true},
				Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}, Offset: 9}}},
			rule: ruleImplements,
		},
		{
			name: "empty implements",
			c: &ast.Component{Defs: []ast.Def{&ast.Import{Name: "store", Attrs: ast.NameAttrs{HasImplements: true},
				Desc: ast.ExternDesc{Kind: ast.ExternInstance}, Offset: 9}}},
			rule: ruleImplements,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Structure(tt.c)
			if tt.unsupported {
				var ns *binary.NotSupportedError
				if !errors.As(err, &ns) {
					t.Fatalf("got %v, want not supported", err)
				}
				return
			}
			var ve *Error
			if !errors.As(err, &ve) || ve.Rule != tt.rule || ve.Offset != 9 {
				t.Fatalf("got %v, want rule %s at offset 9", err, tt.rule)
			}
		})
	}
	// A version suffix after a canonical version that yields valid semver
	// is fine.
	ok := &ast.Component{Defs: []ast.Def{&ast.Import{Name: "a:b/c@0.2", Attrs: ast.NameAttrs{VersionSuffix: ".1-rc"},
		Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}}}}
	if _, err := Structure(ok); err != nil {
		t.Fatal(err)
	}
}
