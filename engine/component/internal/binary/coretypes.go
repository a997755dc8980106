package binary

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// decodeCoreType reads a core:type. At component level (topLevel) 0x50
// opens a module type and a non-final GC sub type is written 0x00 0x50;
// inside a module type 0x50 can only be the GC sub type.
func decodeCoreType(r *reader, topLevel bool) (*ast.CoreType, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch {
	case b == 0x60:
		ft, err := decodeCoreFuncType(r)
		if err != nil {
			return nil, err
		}
		return &ast.CoreType{Type: ft, Offset: off}, nil
	case b == 0x50 && topLevel:
		mt, err := decodeModuleType(r)
		if err != nil {
			return nil, within(err, "module type")
		}
		return &ast.CoreType{Type: mt, Offset: off}, nil
	case b == 0x00 && topLevel:
		next, err := r.peek()
		if err != nil {
			return nil, err
		}
		if next == 0x50 {
			return nil, unsupported(off, "GC core types (sub type)")
		}
	case b == 0x50:
		// Inside a module type a module type cannot nest, and a GC sub
		// type would be written 0x00 0x50 at top level only.
		return nil, failAt(off, ErrBadOpcode, "invalid leading byte 0x50 for a core type inside a module type")
	case b == 0x4e || b == 0x4f || b == 0x5d || b == 0x5e || b == 0x5f:
		return nil, unsupported(off, "GC core types (rec/sub/struct/array/cont)")
	}
	return nil, failAt(off, ErrBadOpcode, "unknown core type opcode 0x%02x", b)
}

// decodeCoreFuncType reads a core function type after its 0x60 opcode.
func decodeCoreFuncType(r *reader) (*ast.CoreFuncType, error) {
	params, err := vec(r, decodeCoreValType)
	if err != nil {
		return nil, err
	}
	results, err := vec(r, decodeCoreValType)
	if err != nil {
		return nil, err
	}
	return &ast.CoreFuncType{Params: params, Results: results}, nil
}

func decodeCoreValType(r *reader) (ast.CoreValType, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return 0, err
	}
	switch t := ast.CoreValType(b); t {
	case ast.CoreI32, ast.CoreI64, ast.CoreF32, ast.CoreF64, ast.CoreV128, ast.CoreFuncRef, ast.CoreExternRef:
		return t, nil
	}
	if isGCRefOpcode(b) {
		return 0, unsupported(off, "GC reference types")
	}
	return 0, failAt(off, ErrBadOpcode, "unknown core value type 0x%02x", b)
}

// isGCRefOpcode reports the reference type opcodes of the GC and
// exception-handling proposals: (ref null ht), (ref ht) and the abstract
// heap type shorthands.
func isGCRefOpcode(b byte) bool {
	return (b >= 0x63 && b <= 0x6e) || (b >= 0x71 && b <= 0x74)
}

// decodeModuleType reads the declarators of a module type after 0x50.
func decodeModuleType(r *reader) (*ast.ModuleType, error) {
	n, err := r.count()
	if err != nil {
		return nil, err
	}
	decls := make([]ast.ModuleDecl, 0, n)
	for i := range n {
		d, err := decodeModuleDecl(r)
		if err != nil {
			return nil, within(err, fmt.Sprintf("declarator %d", i))
		}
		decls = append(decls, d)
	}
	return &ast.ModuleType{Decls: decls}, nil
}

func decodeModuleDecl(r *reader) (ast.ModuleDecl, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch b {
	case 0x00:
		im := &ast.CoreImport{}
		if im.Module, err = r.name(); err != nil {
			return nil, err
		}
		if im.Name, err = r.name(); err != nil {
			return nil, err
		}
		if im.Desc, err = decodeCoreExternDesc(r); err != nil {
			return nil, err
		}
		return im, nil
	case 0x01:
		return decodeCoreType(r, false)
	case 0x02:
		return decodeCoreOuterAlias(r)
	case 0x03:
		ex := &ast.CoreExportDecl{}
		if ex.Name, err = r.name(); err != nil {
			return nil, err
		}
		if ex.Desc, err = decodeCoreExternDesc(r); err != nil {
			return nil, err
		}
		return ex, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown module type declarator 0x%02x", b)
}

// decodeCoreOuterAlias reads "0x10 0x01 ct idx": sort core type, target
// outer (the only core alias the format has).
func decodeCoreOuterAlias(r *reader) (*ast.CoreOuterAlias, error) {
	off := r.pos
	sort, err := r.byte()
	if err != nil {
		return nil, err
	}
	if sort != 0x10 {
		return nil, failAt(off, ErrBadOpcode, "core alias sort 0x%02x, want 0x10 (type)", sort)
	}
	off = r.pos
	target, err := r.byte()
	if err != nil {
		return nil, err
	}
	if target != 0x01 {
		return nil, failAt(off, ErrBadOpcode, "core alias target 0x%02x, want 0x01 (outer)", target)
	}
	a := &ast.CoreOuterAlias{}
	if a.Count, err = r.u32(); err != nil {
		return nil, err
	}
	a.Idx, err = r.u32()
	return a, err
}

func decodeCoreExternDesc(r *reader) (ast.CoreExternDesc, error) {
	var d ast.CoreExternDesc
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return d, err
	}
	switch b {
	case 0x00:
		d.Kind = ast.SortCoreFunc
		d.TypeIdx, err = r.u32()
	case 0x01:
		d.Kind = ast.SortCoreTable
		d.Table, err = decodeTableType(r)
	case 0x02:
		d.Kind = ast.SortCoreMemory
		d.Memory, err = decodeMemoryType(r)
	case 0x03:
		d.Kind = ast.SortCoreGlobal
		d.Global, err = decodeGlobalType(r)
	case 0x04:
		// A tag type: attribute 0x00 (exception), then its function type.
		var attr byte
		if attr, err = r.byte(); err != nil {
			return d, err
		}
		if attr != 0x00 {
			return d, failAt(off, ErrBadOpcode, "tag attribute 0x%02x, want 0x00 (exception)", attr)
		}
		d.Kind = ast.SortCoreTag
		d.TypeIdx, err = r.u32()
	default:
		return d, failAt(off, ErrBadOpcode, "unknown core extern type 0x%02x", b)
	}
	return d, err
}

func decodeTableType(r *reader) (ast.TableType, error) {
	var t ast.TableType
	off := r.pos
	elem, err := decodeCoreValType(r)
	if err != nil {
		return t, err
	}
	if elem != ast.CoreFuncRef && elem != ast.CoreExternRef {
		return t, failAt(off, ErrInvalid, "table element type %s is not a reference type", elem)
	}
	t.Elem = elem
	off = r.pos
	flags, err := r.byte()
	if err != nil {
		return t, err
	}
	if flags&^0x05 != 0 {
		return t, failAt(off, ErrBadOpcode, "unknown table limits flags 0x%02x", flags)
	}
	t.Is64 = flags&0x04 != 0
	t.Limits, err = decodeLimits(r, flags&0x01 != 0, t.Is64)
	return t, err
}

func decodeMemoryType(r *reader) (ast.MemoryType, error) {
	var m ast.MemoryType
	off := r.pos
	flags, err := r.byte()
	if err != nil {
		return m, err
	}
	if flags&0x08 != 0 {
		return m, unsupported(off, "custom memory page sizes")
	}
	if flags&^0x07 != 0 {
		return m, failAt(off, ErrBadOpcode, "unknown memory limits flags 0x%02x", flags)
	}
	m.Shared = flags&0x02 != 0
	m.Is64 = flags&0x04 != 0
	m.Limits, err = decodeLimits(r, flags&0x01 != 0, m.Is64)
	return m, err
}

// decodeLimits reads min and optional max, as u64 for 64-bit tables and
// memories and u32 otherwise.
func decodeLimits(r *reader, hasMax, is64 bool) (ast.Limits, error) {
	var l ast.Limits
	read := func() (uint64, error) {
		if is64 {
			return r.u64()
		}
		v, err := r.u32()
		return uint64(v), err
	}
	var err error
	if l.Min, err = read(); err != nil || !hasMax {
		return l, err
	}
	maxv, err := read()
	if err != nil {
		return l, err
	}
	l.Max = &maxv
	return l, nil
}

func decodeGlobalType(r *reader) (ast.GlobalType, error) {
	var g ast.GlobalType
	var err error
	if g.Type, err = decodeCoreValType(r); err != nil {
		return g, err
	}
	off := r.pos
	m, err := r.byte()
	if err != nil {
		return g, err
	}
	switch m {
	case 0x00:
	case 0x01:
		g.Mutable = true
	case 0x02, 0x03:
		return g, unsupported(off, "shared globals")
	default:
		return g, failAt(off, ErrBadOpcode, "unknown global mutability 0x%02x", m)
	}
	return g, nil
}
