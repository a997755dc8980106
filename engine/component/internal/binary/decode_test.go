package binary

import (
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

func u32p(v uint32) *uint32 { return &v }

func vt(p ast.Primitive) ast.ValType { return ast.ValType{Prim: p} }

func vtp(p ast.Primitive) *ast.ValType { t := vt(p); return &t }

func idx(i uint32) ast.ValType { return ast.ValType{Idx: i} }

// TestDecodeConstructs decodes one hand-encoded section per construct and
// compares the definitions it yields.
func TestDecodeConstructs(t *testing.T) {
	tests := []struct {
		name    string
		section []byte
		want    []ast.Def
	}{
		{"core module", section(1, coreModuleBytes),
			[]ast.Def{&ast.CoreModule{Bytes: coreModuleBytes}}},
		{"core instantiate", section(2, vecOf(cat(b(0x00), leb(3), vecOf(cat(str("env"), b(0x12), leb(1)))))),
			[]ast.Def{&ast.CoreInstantiate{ModuleIdx: 3, Args: []ast.CoreInstantiateArg{{Name: "env", InstanceIdx: 1}}}}},
		{"core instance from exports", section(2, vecOf(cat(b(0x01), vecOf(
			cat(str("f"), b(0x00), leb(0)),
			cat(str("t"), b(0x01), leb(1)),
			cat(str("m"), b(0x02), leb(2)),
			cat(str("g"), b(0x03), leb(300)),
		)))),
			[]ast.Def{&ast.CoreInstanceExports{Exports: []ast.CoreInlineExport{
				{Name: "f", Sort: ast.SortCoreFunc, Idx: 0},
				{Name: "t", Sort: ast.SortCoreTable, Idx: 1},
				{Name: "m", Sort: ast.SortCoreMemory, Idx: 2},
				{Name: "g", Sort: ast.SortCoreGlobal, Idx: 300},
			}}}},
		{"core func type", section(3, vecOf(cat(b(0x60), vecOf(b(0x7f), b(0x7e), b(0x7d), b(0x7c), b(0x7b), b(0x70), b(0x6f)), vecOf(b(0x7f))))),
			[]ast.Def{&ast.CoreType{Type: &ast.CoreFuncType{
				Params:  []ast.CoreValType{ast.CoreI32, ast.CoreI64, ast.CoreF32, ast.CoreF64, ast.CoreV128, ast.CoreFuncRef, ast.CoreExternRef},
				Results: []ast.CoreValType{ast.CoreI32}}}}},
		{"core module type", section(3, vecOf(cat(b(0x50), vecOf(
			cat(b(0x01, 0x60), vecOf(), vecOf()),
			cat(b(0x00), str("a"), str("f"), b(0x00), leb(0)),
			cat(b(0x00), str("a"), str("t"), b(0x01, 0x70, 0x01), leb(1), leb(2)),
			cat(b(0x00), str("a"), str("t64"), b(0x01, 0x6f, 0x04), leb(1)),
			cat(b(0x00), str("a"), str("m"), b(0x02, 0x03), leb(1), leb(2)),
			cat(b(0x00), str("a"), str("m64"), b(0x02, 0x04), leb(1<<40)),
			cat(b(0x02, 0x10, 0x01), leb(1), leb(5)),
			cat(b(0x03), str("g"), b(0x03, 0x7e, 0x01)),
		)))),
			[]ast.Def{&ast.CoreType{Type: &ast.ModuleType{Decls: []ast.ModuleDecl{
				&ast.CoreType{Type: &ast.CoreFuncType{Params: []ast.CoreValType{}, Results: []ast.CoreValType{}}},
				&ast.CoreImport{Module: "a", Name: "f", Desc: ast.CoreExternDesc{Kind: ast.SortCoreFunc}},
				&ast.CoreImport{Module: "a", Name: "t", Desc: ast.CoreExternDesc{Kind: ast.SortCoreTable,
					Table: ast.TableType{Elem: ast.CoreFuncRef, Limits: ast.Limits{Min: 1, Max: u64p(2)}}}},
				&ast.CoreImport{Module: "a", Name: "t64", Desc: ast.CoreExternDesc{Kind: ast.SortCoreTable,
					Table: ast.TableType{Elem: ast.CoreExternRef, Limits: ast.Limits{Min: 1}, Is64: true}}},
				&ast.CoreImport{Module: "a", Name: "m", Desc: ast.CoreExternDesc{Kind: ast.SortCoreMemory,
					Memory: ast.MemoryType{Limits: ast.Limits{Min: 1, Max: u64p(2)}, Shared: true}}},
				&ast.CoreImport{Module: "a", Name: "m64", Desc: ast.CoreExternDesc{Kind: ast.SortCoreMemory,
					Memory: ast.MemoryType{Limits: ast.Limits{Min: 1 << 40}, Is64: true}}},
				&ast.CoreOuterAlias{Count: 1, Idx: 5},
				&ast.CoreExportDecl{Name: "g", Desc: ast.CoreExternDesc{Kind: ast.SortCoreGlobal,
					Global: ast.GlobalType{Type: ast.CoreI64, Mutable: true}}},
			}}}}},
		{"nested component", section(4, preamble, section(1, coreModuleBytes)),
			[]ast.Def{&ast.NestedComponent{Component: &ast.Component{Defs: []ast.Def{&ast.CoreModule{Bytes: coreModuleBytes}}}}}},
		{"instantiate", section(5, vecOf(cat(b(0x00), leb(2), vecOf(
			cat(str("f"), b(0x01), leb(4)),
			cat(str("m"), b(0x00, 0x11), leb(0)),
			cat(str("t"), b(0x03), leb(1)),
			cat(str("c"), b(0x04), leb(2)),
			cat(str("i"), b(0x05), leb(3)),
		)))),
			[]ast.Def{&ast.Instantiate{ComponentIdx: 2, Args: []ast.InstantiateArg{
				{Name: "f", Sort: ast.SortFunc, Idx: 4},
				{Name: "m", Sort: ast.SortCoreModule, Idx: 0},
				{Name: "t", Sort: ast.SortType, Idx: 1},
				{Name: "c", Sort: ast.SortComponent, Idx: 2},
				{Name: "i", Sort: ast.SortInstance, Idx: 3},
			}}}},
		{"instance from exports", section(5, vecOf(cat(b(0x01), vecOf(
			cat(b(0x00), str("a:b/c@1.0.0"), b(0x01), leb(7)),
			cat(b(0x01), str("legacy"), b(0x05), leb(1)),
			cat(b(0x02), str("x"), vecOf(cat(b(0x00), str("a:b/i")), cat(b(0x01), str("-rc1")), cat(b(0x02), str("id"))), b(0x03), leb(2)),
		)))),
			[]ast.Def{&ast.InstanceExports{Exports: []ast.InlineExport{
				{Name: "a:b/c@1.0.0", Sort: ast.SortFunc, Idx: 7},
				{Name: "legacy", Sort: ast.SortInstance, Idx: 1},
				{Name: "x", Attrs: ast.NameAttrs{Implements: "a:b/i", VersionSuffix: "-rc1", ExternalID: "id", HasImplements: true}, Sort: ast.SortType, Idx: 2},
			}}}},
		{"aliases", section(6, vecOf(
			cat(b(0x01, 0x00), leb(2), str("log")),
			cat(b(0x00, 0x11, 0x00), leb(2), str("m")),
			cat(b(0x00, 0x02, 0x01), leb(1), str("memory")),
			cat(b(0x00, 0x00, 0x01), leb(1), str("f")),
			cat(b(0x03, 0x02), leb(1), leb(4)),
			cat(b(0x00, 0x10, 0x02), leb(0), leb(1)),
			cat(b(0x04, 0x02), leb(2), leb(0)),
		)),
			[]ast.Def{
				&ast.Alias{Sort: ast.SortFunc, Kind: ast.AliasInstanceExport, InstanceIdx: 2, Name: "log"},
				&ast.Alias{Sort: ast.SortCoreModule, Kind: ast.AliasInstanceExport, InstanceIdx: 2, Name: "m"},
				&ast.Alias{Sort: ast.SortCoreMemory, Kind: ast.AliasCoreInstanceExport, InstanceIdx: 1, Name: "memory"},
				&ast.Alias{Sort: ast.SortCoreFunc, Kind: ast.AliasCoreInstanceExport, InstanceIdx: 1, Name: "f"},
				&ast.Alias{Sort: ast.SortType, Kind: ast.AliasOuter, Count: 1, Idx: 4},
				&ast.Alias{Sort: ast.SortCoreType, Kind: ast.AliasOuter, Count: 0, Idx: 1},
				&ast.Alias{Sort: ast.SortComponent, Kind: ast.AliasOuter, Count: 2, Idx: 0},
			}},
		{"value types", section(7, vecOf(
			b(0x7f), b(0x73),
			cat(b(0x72), vecOf(cat(str("a"), b(0x79)), cat(str("b"), leb(0)))),
			cat(b(0x71), vecOf(cat(str("none"), b(0x00, 0x00)), cat(str("some"), b(0x01, 0x74, 0x00)))),
			b(0x70, 0x7d),
			cat(b(0x6f), vecOf(b(0x7e), b(0x76), b(0x75))),
			cat(b(0x6e), vecOf(str("r"), str("w"))),
			cat(b(0x6d), vecOf(str("x"))),
			cat(b(0x6b), leb(200)),
			b(0x6a, 0x01, 0x78, 0x01, 0x73),
			b(0x6a, 0x00, 0x00),
			b(0x69, 0x03), b(0x68, 0x03),
		)),
			[]ast.Def{
				&ast.Type{Type: ast.PrimBool},
				&ast.Type{Type: ast.PrimString},
				&ast.Type{Type: &ast.Record{Fields: []ast.NamedType{{Name: "a", Type: vt(ast.PrimU32)}, {Name: "b", Type: idx(0)}}}},
				&ast.Type{Type: &ast.Variant{Cases: []ast.Case{{Name: "none"}, {Name: "some", Type: vtp(ast.PrimChar)}}}},
				&ast.Type{Type: &ast.List{Elem: vt(ast.PrimU8)}},
				&ast.Type{Type: &ast.Tuple{Types: []ast.ValType{vt(ast.PrimS8), vt(ast.PrimF32), vt(ast.PrimF64)}}},
				&ast.Type{Type: &ast.Flags{Names: []string{"r", "w"}}},
				&ast.Type{Type: &ast.Enum{Names: []string{"x"}}},
				&ast.Type{Type: &ast.Option{Type: idx(200)}},
				&ast.Type{Type: &ast.Result{Ok: vtp(ast.PrimS64), Err: vtp(ast.PrimString)}},
				&ast.Type{Type: &ast.Result{}},
				&ast.Type{Type: &ast.Own{TypeIdx: 3}},
				&ast.Type{Type: &ast.Borrow{TypeIdx: 3}},
			}},
		{"func types", section(7, vecOf(
			cat(b(0x40), vecOf(cat(str("x"), b(0x7a)), cat(str("y"), b(0x77))), b(0x00, 0x7c)),
			cat(b(0x40), vecOf(), b(0x01, 0x00)),
		)),
			[]ast.Def{
				&ast.Type{Type: &ast.FuncType{Params: []ast.NamedType{{Name: "x", Type: vt(ast.PrimS32)}, {Name: "y", Type: vt(ast.PrimU64)}}, Result: vtp(ast.PrimS16)}},
				&ast.Type{Type: &ast.FuncType{Params: []ast.NamedType{}}},
			}},
		{"resource types", section(7, vecOf(b(0x3f, 0x7f, 0x00), b(0x3f, 0x7f, 0x01, 0x05))),
			[]ast.Def{
				&ast.Type{Type: &ast.ResourceType{Rep: ast.CoreI32}},
				&ast.Type{Type: &ast.ResourceType{Rep: ast.CoreI32, Dtor: u32p(5)}},
			}},
		{"component and instance types", section(7, vecOf(
			cat(b(0x41), vecOf(
				cat(b(0x03, 0x00), str("in"), b(0x01), leb(0)),
				cat(b(0x00, 0x60), vecOf(), vecOf()),
				cat(b(0x01, 0x40), vecOf(), b(0x01, 0x00)),
				cat(b(0x02, 0x03, 0x02), leb(1), leb(0)),
				cat(b(0x04, 0x00), str("out"), b(0x03, 0x01)),
				cat(b(0x04, 0x00), str("eq"), b(0x03, 0x00), leb(1)),
				cat(b(0x04, 0x00), str("m"), b(0x00, 0x11), leb(0)),
			)),
			cat(b(0x42), vecOf(
				cat(b(0x04, 0x00), str("c"), b(0x04), leb(1)),
				cat(b(0x04, 0x00), str("i"), b(0x05), leb(2)),
				cat(b(0x02, 0x03, 0x00), leb(0), str("t")),
			)),
		)),
			[]ast.Def{
				&ast.Type{Type: &ast.ComponentType{Decls: []ast.Decl{
					&ast.Import{Name: "in", Desc: ast.ExternDesc{Kind: ast.ExternFunc}},
					&ast.CoreType{Type: &ast.CoreFuncType{Params: []ast.CoreValType{}, Results: []ast.CoreValType{}}},
					&ast.Type{Type: &ast.FuncType{Params: []ast.NamedType{}}},
					&ast.Alias{Sort: ast.SortType, Kind: ast.AliasOuter, Count: 1, Idx: 0},
					&ast.ExportDecl{Name: "out", Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}},
					&ast.ExportDecl{Name: "eq", Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundEq, TypeIdx: 1}},
					&ast.ExportDecl{Name: "m", Desc: ast.ExternDesc{Kind: ast.ExternCoreModule}},
				}}},
				&ast.Type{Type: &ast.InstanceType{Decls: []ast.Decl{
					&ast.ExportDecl{Name: "c", Desc: ast.ExternDesc{Kind: ast.ExternComponent, TypeIdx: 1}},
					&ast.ExportDecl{Name: "i", Desc: ast.ExternDesc{Kind: ast.ExternInstance, TypeIdx: 2}},
					&ast.Alias{Sort: ast.SortType, Kind: ast.AliasInstanceExport, InstanceIdx: 0, Name: "t"},
				}}},
			}},
		{"canon", section(8, vecOf(
			cat(b(0x00, 0x00), leb(1), vecOf(b(0x01), cat(b(0x03), leb(0)), cat(b(0x04), leb(2)), cat(b(0x05), leb(3))), leb(4)),
			cat(b(0x01, 0x00), leb(5), vecOf(b(0x02))),
			cat(b(0x01, 0x00), leb(6), vecOf()),
			b(0x02, 0x07), b(0x03, 0x08), b(0x04, 0x09),
		)),
			[]ast.Def{
				&ast.Canon{Kind: ast.CanonLift, FuncIdx: 1, TypeIdx: 4, Options: ast.CanonOptions{
					StringEncoding: ast.StringUTF16, Memory: u32p(0), Realloc: u32p(2), PostReturn: u32p(3)}},
				&ast.Canon{Kind: ast.CanonLower, FuncIdx: 5, Options: ast.CanonOptions{StringEncoding: ast.StringLatin1UTF16}},
				&ast.Canon{Kind: ast.CanonLower, FuncIdx: 6},
				&ast.Canon{Kind: ast.CanonResourceNew, TypeIdx: 7},
				&ast.Canon{Kind: ast.CanonResourceDrop, TypeIdx: 8},
				&ast.Canon{Kind: ast.CanonResourceRep, TypeIdx: 9},
			}},
		{"start", section(9, leb(3), vecOf(), leb(0)),
			[]ast.Def{&ast.Start{FuncIdx: 3}}},
		{"imports", section(10, vecOf(
			cat(b(0x00), str("wasi:io/streams@0.2.0"), b(0x05), leb(0)),
			cat(b(0x00), str("f"), b(0x01), leb(1)),
			cat(b(0x00), str("r"), b(0x03, 0x01)),
			cat(b(0x00), str("c"), b(0x04), leb(2)),
			cat(b(0x00), str("m"), b(0x00, 0x11), leb(3)),
		)),
			[]ast.Def{
				&ast.Import{Name: "wasi:io/streams@0.2.0", Desc: ast.ExternDesc{Kind: ast.ExternInstance}},
				&ast.Import{Name: "f", Desc: ast.ExternDesc{Kind: ast.ExternFunc, TypeIdx: 1}},
				&ast.Import{Name: "r", Desc: ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundSubResource}},
				&ast.Import{Name: "c", Desc: ast.ExternDesc{Kind: ast.ExternComponent, TypeIdx: 2}},
				&ast.Import{Name: "m", Desc: ast.ExternDesc{Kind: ast.ExternCoreModule, TypeIdx: 3}},
			}},
		{"exports", section(11, vecOf(
			cat(b(0x00), str("run"), b(0x01), leb(2), b(0x00)),
			cat(b(0x00), str("t"), b(0x03), leb(4), b(0x01, 0x03, 0x00), leb(4)),
		)),
			[]ast.Def{
				&ast.Export{Name: "run", Sort: ast.SortFunc, Idx: 2},
				&ast.Export{Name: "t", Sort: ast.SortType, Idx: 4, Desc: &ast.ExternDesc{Kind: ast.ExternType, Bound: ast.BoundEq, TypeIdx: 4}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeComponent(component(tt.section))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			clearOffsets(c)
			if !reflect.DeepEqual(c.Defs, tt.want) {
				t.Errorf("defs mismatch\n got: %s\nwant: %s", dump(c.Defs), dump(tt.want))
			}
		})
	}
}

func u64p(v uint64) *uint64 { return &v }
