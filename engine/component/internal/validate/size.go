package validate

import "github.com/mur-go/mur/engine/component/internal/ast"

// The size of a value in linear memory is bounded (CanonicalABI.md,
// "Element size"): elem_size(t) with 64-bit pointers must stay below
// 2^28 bytes, which only fixed-length lists can reach.
const (
	ruleMaxSize  = "types.size"    // a value type takes less than 2^28 bytes in memory
	ruleMapKey   = "types.map-key" // a map's key type is bool, an integer, char or string
	maxValueSize = 1 << 28
	// sizeCap saturates sizes so that nested fixed-length lists cannot
	// overflow the arithmetic; anything at the cap is refused anyway.
	sizeCap = 1 << 40
)

// layout is a value type's size and alignment in memory; size 0 means
// unknown (a type aliased from an instance's exports).
type layout struct{ size, align uint64 }

func primLayout(p ast.Primitive) layout {
	switch p {
	case ast.PrimBool, ast.PrimS8, ast.PrimU8:
		return layout{1, 1}
	case ast.PrimS16, ast.PrimU16:
		return layout{2, 2}
	case ast.PrimS32, ast.PrimU32, ast.PrimF32, ast.PrimChar:
		return layout{4, 4}
	case ast.PrimS64, ast.PrimU64, ast.PrimF64:
		return layout{8, 8}
	case ast.PrimString:
		return layout{16, 8}
	}
	return layout{}
}

func (s *vscope) valLayout(v ast.ValType) layout {
	if v.IsPrim() {
		return primLayout(v.Prim)
	}
	if int(v.Idx) < len(s.types) {
		return s.types[v.Idx].lay
	}
	return layout{}
}

func alignTo(x, a uint64) uint64 {
	if a == 0 {
		return x
	}
	return (x + a - 1) / a * a
}

// record lays members out in order; unknown if any member is.
func record(ms []layout) layout {
	var size, align uint64 = 0, 1
	for _, m := range ms {
		if m.size == 0 {
			return layout{}
		}
		size = min(alignTo(size, m.align)+m.size, sizeCap)
		align = max(align, m.align)
	}
	return layout{alignTo(size, align), align}
}

// variant is a discriminant for n cases followed by the largest payload.
func variant(n int, payloads []layout) layout {
	disc := layout{1, 1}
	switch {
	case n > 1<<16:
		disc = layout{4, 4}
	case n > 1<<8:
		disc = layout{2, 2}
	}
	var size, align uint64 = 0, disc.align
	for _, p := range payloads {
		if p.size == 0 {
			return layout{}
		}
		size = max(size, p.size)
		align = max(align, p.align)
	}
	return layout{alignTo(min(alignTo(disc.size, align)+size, sizeCap), align), align}
}

// layout computes a value type definition's layout; its members were
// checked by typeDefKind.
func (s *vscope) layout(d ast.TypeDef) layout {
	switch d := d.(type) {
	case ast.Primitive:
		return primLayout(d)
	case *ast.Record:
		ms := make([]layout, len(d.Fields))
		for i, f := range d.Fields {
			ms[i] = s.valLayout(f.Type)
		}
		return record(ms)
	case *ast.Tuple:
		ms := make([]layout, len(d.Types))
		for i, t := range d.Types {
			ms[i] = s.valLayout(t)
		}
		return record(ms)
	case *ast.Variant:
		var ps []layout
		for _, c := range d.Cases {
			if c.Type != nil {
				ps = append(ps, s.valLayout(*c.Type))
			}
		}
		return variant(len(d.Cases), ps)
	case *ast.Enum:
		return variant(len(d.Names), nil)
	case *ast.Option:
		return variant(2, []layout{s.valLayout(d.Type)})
	case *ast.Result:
		var ps []layout
		for _, p := range []*ast.ValType{d.Ok, d.Err} {
			if p != nil {
				ps = append(ps, s.valLayout(*p))
			}
		}
		return variant(2, ps)
	case *ast.Flags:
		switch n := len(d.Names); {
		case n <= 8:
			return layout{1, 1}
		case n <= 16:
			return layout{2, 2}
		}
		return layout{4, 4}
	case *ast.List:
		if d.Len == 0 {
			return layout{16, 8}
		}
		e := s.valLayout(d.Elem)
		if e.size == 0 {
			return layout{}
		}
		if e.size > sizeCap/uint64(d.Len) {
			return layout{sizeCap, e.align}
		}
		return layout{e.size * uint64(d.Len), e.align}
	case *ast.Map:
		return layout{16, 8}
	case *ast.Own, *ast.Borrow:
		return layout{4, 4}
	}
	return layout{}
}
