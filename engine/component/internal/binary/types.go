package binary

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// maxFlags is the largest flags type the canonical ABI allows.
const maxFlags = 32

func decodeType(r *reader, depth int) (*ast.Type, error) {
	off := r.pos
	t, err := decodeTypeDef(r, depth)
	if err != nil {
		return nil, err
	}
	return &ast.Type{Type: t, Offset: off}, nil
}

// decodeTypeDef reads a deftype. Its leading opcode byte selects the form;
// anything that is not a function, component, instance or resource type
// is a defvaltype.
func decodeTypeDef(r *reader, depth int) (ast.TypeDef, error) {
	off := r.pos
	b, err := r.peek()
	if err != nil {
		return nil, err
	}
	switch b {
	case 0x40:
		r.pos++
		return decodeFuncType(r)
	case 0x43:
		return nil, unsupported(off, "async function types")
	case 0x41:
		r.pos++
		decls, err := decodeDecls(r, depth+1, true)
		if err != nil {
			return nil, within(err, "component type")
		}
		return &ast.ComponentType{Decls: decls}, nil
	case 0x42:
		r.pos++
		decls, err := decodeDecls(r, depth+1, false)
		if err != nil {
			return nil, within(err, "instance type")
		}
		return &ast.InstanceType{Decls: decls}, nil
	case 0x3f:
		r.pos++
		return decodeResourceType(r)
	}
	return decodeDefValType(r)
}

func decodeDefValType(r *reader) (ast.TypeDef, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	if p, ok := primitive(b); ok {
		return p, nil
	}
	switch b {
	case 0x72:
		fields, err := vec(r, decodeNamedType)
		if err != nil {
			return nil, err
		}
		if len(fields) == 0 {
			return nil, failAt(off, ErrInvalid, "record type with no fields")
		}
		return &ast.Record{Fields: fields}, nil
	case 0x71:
		cases, err := vec(r, decodeCase)
		if err != nil {
			return nil, err
		}
		if len(cases) == 0 {
			return nil, failAt(off, ErrInvalid, "variant type with no cases")
		}
		return &ast.Variant{Cases: cases}, nil
	case 0x70:
		t, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		return &ast.List{Elem: t}, nil
	case 0x6f:
		ts, err := vec(r, decodeValType)
		if err != nil {
			return nil, err
		}
		if len(ts) == 0 {
			return nil, failAt(off, ErrInvalid, "tuple type with no elements")
		}
		return &ast.Tuple{Types: ts}, nil
	case 0x6e:
		names, err := vec(r, (*reader).name)
		if err != nil {
			return nil, err
		}
		if len(names) == 0 || len(names) > maxFlags {
			return nil, failAt(off, ErrInvalid, "flags type with %d flags, want 1 to %d", len(names), maxFlags)
		}
		return &ast.Flags{Names: names}, nil
	case 0x6d:
		names, err := vec(r, (*reader).name)
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, failAt(off, ErrInvalid, "enum type with no cases")
		}
		return &ast.Enum{Names: names}, nil
	case 0x6b:
		t, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		return &ast.Option{Type: t}, nil
	case 0x6a:
		ok, err := decodeOptValType(r)
		if err != nil {
			return nil, err
		}
		e, err := decodeOptValType(r)
		if err != nil {
			return nil, err
		}
		return &ast.Result{Ok: ok, Err: e}, nil
	case 0x69:
		i, err := r.u32()
		if err != nil {
			return nil, err
		}
		return &ast.Own{TypeIdx: i}, nil
	case 0x68:
		i, err := r.u32()
		if err != nil {
			return nil, err
		}
		return &ast.Borrow{TypeIdx: i}, nil
	case 0x67:
		t, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		loff := r.pos
		n, err := r.u32()
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, failAt(loff, ErrInvalid, "fixed-length list of length 0")
		}
		return &ast.List{Elem: t, Len: n}, nil
	case 0x66:
		return nil, unsupported(off, "stream types")
	case 0x65:
		return nil, unsupported(off, "future types")
	case 0x64:
		return nil, unsupported(off, "error-context type")
	case 0x63:
		k, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		v, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		return &ast.Map{Key: k, Value: v}, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown type opcode 0x%02x", b)
}

// primitive maps a primvaltype opcode to its primitive.
func primitive(b byte) (ast.Primitive, bool) {
	if b < 0x73 || b > 0x7f {
		return 0, false
	}
	// Opcodes run downwards from bool (0x7f) to string (0x73) in the same
	// order as the ast.Primitive constants run upwards.
	return ast.PrimBool + ast.Primitive(0x7f-b), true
}

// decodeValType reads a valtype: a primitive opcode or a non-negative
// type index, both in the s33 encoding shared with core value types.
func decodeValType(r *reader) (ast.ValType, error) {
	off := r.pos
	b, err := r.peek()
	if err != nil {
		return ast.ValType{}, err
	}
	if p, ok := primitive(b); ok {
		r.pos++
		return ast.ValType{Prim: p}, nil
	}
	if b == 0x64 {
		return ast.ValType{}, unsupported(off, "error-context type")
	}
	v, err := r.s33()
	if err != nil {
		return ast.ValType{}, err
	}
	if v < 0 {
		return ast.ValType{}, failAt(off, ErrBadOpcode, "invalid value type 0x%02x", b)
	}
	return ast.ValType{Idx: uint32(v)}, nil
}

// decodeOptValType reads 0x00 (absent) or 0x01 followed by a valtype.
func decodeOptValType(r *reader) (*ast.ValType, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch b {
	case 0x00:
		return nil, nil
	case 0x01:
		t, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		return &t, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown optional value type flag 0x%02x", b)
}

func decodeNamedType(r *reader) (ast.NamedType, error) {
	var nt ast.NamedType
	var err error
	if nt.Name, err = r.name(); err != nil {
		return nt, err
	}
	nt.Type, err = decodeValType(r)
	return nt, err
}

// decodeCase reads a variant case. The trailing byte once announced a
// "refines" clause (0x01); that was removed from the format, so only 0x00
// is accepted, as in current wasm-tools.
func decodeCase(r *reader) (ast.Case, error) {
	var c ast.Case
	var err error
	if c.Name, err = r.name(); err != nil {
		return c, err
	}
	if c.Type, err = decodeOptValType(r); err != nil {
		return c, err
	}
	off := r.pos
	z, err := r.byte()
	if err != nil {
		return c, err
	}
	if z != 0x00 {
		return c, failAt(off, ErrBadOpcode, "variant case trailer 0x%02x, want 0x00", z)
	}
	return c, nil
}

// decodeFuncType reads the body of a functype after its 0x40 opcode.
func decodeFuncType(r *reader) (*ast.FuncType, error) {
	params, err := vec(r, decodeNamedType)
	if err != nil {
		return nil, err
	}
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch b {
	case 0x00:
		t, err := decodeValType(r)
		if err != nil {
			return nil, err
		}
		return &ast.FuncType{Params: params, Result: &t}, nil
	case 0x01:
		// 0x01 0x00 is "no result"; named results (0x01 with a count)
		// are gone from the format.
		zoff := r.pos
		n, err := r.byte()
		if err != nil {
			return nil, err
		}
		if n != 0 {
			return nil, failAt(zoff, ErrBadOpcode, "invalid leading byte (0x1) for number of results: 0x01 must be followed by 0x00")
		}
		return &ast.FuncType{Params: params}, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown function result kind 0x%02x", b)
}

// decodeResourceType reads the body of a resource type after its 0x3f
// opcode.
func decodeResourceType(r *reader) (*ast.ResourceType, error) {
	off := r.pos
	rep, err := r.byte()
	if err != nil {
		return nil, err
	}
	if ast.CoreValType(rep) != ast.CoreI32 {
		return nil, failAt(off, ErrInvalid, "resource representation 0x%02x, want i32 (0x7f)", rep)
	}
	dtor, err := decodeOptU32(r, "resource destructor")
	if err != nil {
		return nil, err
	}
	return &ast.ResourceType{Rep: ast.CoreI32, Dtor: dtor}, nil
}

// decodeOptU32 reads 0x00 (absent) or 0x01 followed by a u32.
func decodeOptU32(r *reader, what string) (*uint32, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch b {
	case 0x00:
		return nil, nil
	case 0x01:
		v, err := r.u32()
		if err != nil {
			return nil, err
		}
		return &v, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown %s flag 0x%02x", what, b)
}

// decodeDecls reads the declarators of a component type (component true)
// or instance type.
func decodeDecls(r *reader, depth int, component bool) ([]ast.Decl, error) {
	if depth > maxDepth {
		return nil, failAt(r.pos, ErrTooDeep, "types nested more than %d deep", maxDepth)
	}
	n, err := r.count()
	if err != nil {
		return nil, err
	}
	decls := make([]ast.Decl, 0, n)
	for i := range n {
		d, err := decodeDecl(r, depth, component)
		if err != nil {
			return nil, within(err, fmt.Sprintf("declarator %d", i))
		}
		decls = append(decls, d)
	}
	return decls, nil
}

func decodeDecl(r *reader, depth int, component bool) (ast.Decl, error) {
	off := r.pos
	b, err := r.byte()
	if err != nil {
		return nil, err
	}
	switch b {
	case 0x00:
		return decodeCoreType(r, true)
	case 0x01:
		return decodeType(r, depth)
	case 0x02:
		a, err := decodeAlias(r)
		if err != nil {
			return nil, err
		}
		return a, checkDeclAlias(a)
	case 0x03:
		if component {
			return decodeImport(r)
		}
	case 0x04:
		ed := &ast.ExportDecl{Offset: off}
		if ed.Name, ed.Attrs, err = decodeExternName(r); err != nil {
			return nil, err
		}
		if ed.Desc, err = decodeExternDesc(r); err != nil {
			return nil, err
		}
		return ed, nil
	}
	return nil, failAt(off, ErrBadOpcode, "unknown declarator 0x%02x", b)
}

// checkDeclAlias applies the restrictions on aliases inside types: export
// aliases of instances and types, outer aliases of types and core types.
func checkDeclAlias(a *ast.Alias) error {
	ok := false
	switch a.Kind {
	case ast.AliasInstanceExport:
		ok = a.Sort == ast.SortInstance || a.Sort == ast.SortType
	case ast.AliasOuter:
		ok = a.Sort == ast.SortType || a.Sort == ast.SortCoreType
	}
	if !ok {
		return failAt(a.Offset, ErrInvalid, "%s alias of a %s is not allowed in a type", a.Kind, a.Sort)
	}
	return nil
}
