package validate

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
)

// Rules about type definitions (Binary.md, "Type Definitions"). The
// conditions the binary grammar states itself (records, variants, tuples,
// enums and flags are non-empty, at most 32 flags, a resource's rep is i32)
// are enforced by the decoder.
const (
	RuleValType        = "types.valtype"          // a value type index names a value type
	RuleHandle         = "types.handle"           // own and borrow name resource types
	ruleBorrowResult   = "types.borrow-result"    // no borrow in function results
	ruleBorrowExport   = "types.borrow-export"    // no borrow in exported value types
	ruleResourceInType = "types.resource-in-type" // no resource definitions inside component/instance types
	ruleCoreLimits     = "types.core-limits"      // limits of core memory and table types are in range
)

func (s *vscope) valType(v ast.ValType, off int, what string) (vtype, error) {
	if v.IsPrim() {
		return vtype{kind: vkValue}, nil
	}
	if err := s.idx(ast.SortType, v.Idx, off, what); err != nil {
		return vtype{}, err
	}
	t := s.types[v.Idx]
	if t.kind != vkValue && t.kind != vkUnknown {
		return t, Invalid(RuleValType, off, "%s: type %d is a %s type, not a value type", what, v.Idx, t.kind)
	}
	return t, nil
}

// valTypes checks member types; the result carries their borrows.
func (s *vscope) valTypes(vs []ast.ValType, off int, what string) (vtype, error) {
	t := vtype{kind: vkValue}
	for _, v := range vs {
		m, err := s.valType(v, off, what)
		if err != nil {
			return t, err
		}
		t.borrow = t.borrow || m.borrow
		t.res = t.res || m.res
	}
	return t, nil
}

// typeDef checks a type definition and, for a value type, its size in
// linear memory.
func (s *vscope) typeDef(d ast.TypeDef, off int) (vtype, error) {
	t, err := s.typeDefKind(d, off)
	if err != nil || t.kind != vkValue {
		return t, err
	}
	t.lay = s.layout(d)
	if t.lay.size >= maxValueSize {
		return t, Invalid(ruleMaxSize, off, "a value of this type takes %d bytes in memory (with 64-bit pointers), which exceeds the maximum byte size of %d", t.lay.size, maxValueSize)
	}
	return t, nil
}

func (s *vscope) typeDefKind(d ast.TypeDef, off int) (vtype, error) {
	switch d := d.(type) {
	case ast.Primitive:
		return vtype{kind: vkValue}, nil
	case *ast.Record:
		labels, types := make([]string, len(d.Fields)), make([]ast.ValType, len(d.Fields))
		for i, f := range d.Fields {
			labels[i], types[i] = f.Name, f.Type
		}
		if err := checkLabels("record field", labels, off); err != nil {
			return vtype{}, err
		}
		return s.valTypes(types, off, "record field")
	case *ast.Variant:
		labels := make([]string, len(d.Cases))
		var types []ast.ValType
		for i, c := range d.Cases {
			labels[i] = c.Name
			if c.Type != nil {
				types = append(types, *c.Type)
			}
		}
		if err := checkLabels("variant case", labels, off); err != nil {
			return vtype{}, err
		}
		return s.valTypes(types, off, "variant case")
	case *ast.List:
		t, err := s.valType(d.Elem, off, "list element")
		t.kind = vkValue
		return t, err
	case *ast.Map:
		if !d.Key.IsPrim() || d.Key.Prim == ast.PrimF32 || d.Key.Prim == ast.PrimF64 {
			return vtype{}, Invalid(ruleMapKey, off, "map key type must be bool, an integer type, char or string")
		}
		t, err := s.valType(d.Value, off, "map value")
		t.kind = vkValue
		return t, err
	case *ast.Tuple:
		return s.valTypes(d.Types, off, "tuple element")
	case *ast.Flags:
		return vtype{kind: vkValue}, checkLabels("flag", d.Names, off)
	case *ast.Enum:
		return vtype{kind: vkValue}, checkLabels("enum case", d.Names, off)
	case *ast.Option:
		return s.valType(d.Type, off, "option")
	case *ast.Result:
		var types []ast.ValType
		for _, p := range []*ast.ValType{d.Ok, d.Err} {
			if p != nil {
				types = append(types, *p)
			}
		}
		return s.valTypes(types, off, "result")
	case *ast.Own:
		_, err := s.handle("own", d.TypeIdx, off)
		return vtype{kind: vkValue, res: true}, err
	case *ast.Borrow:
		_, err := s.handle("borrow", d.TypeIdx, off)
		return vtype{kind: vkValue, borrow: true, res: true}, err
	case *ast.FuncType:
		return s.funcType(d, off)
	case *ast.ResourceType:
		if s.isType {
			return vtype{}, Invalid(ruleResourceInType, off, "resource definition inside a component or instance type (declare it with (export \"r\" (type (sub resource))))")
		}
		if d.Dtor != nil {
			if err := s.idx(ast.SortCoreFunc, *d.Dtor, off, "resource destructor"); err != nil {
				return vtype{}, err
			}
		}
		return vtype{kind: vkResource, res: true}, nil
	case *ast.InstanceType:
		ts := newVScope(s, true)
		for _, decl := range d.Decls {
			if err := ts.decl(decl, off); err != nil {
				return vtype{}, err
			}
		}
		return vtype{kind: vkInstance, res: ts.outerRes}, nil
	case *ast.ComponentType:
		ts := newVScope(s, true)
		for _, decl := range d.Decls {
			if err := ts.decl(decl, off); err != nil {
				return vtype{}, err
			}
		}
		return vtype{kind: vkComponent, res: ts.outerRes}, nil
	}
	return vtype{}, Invalid(RuleIndexSort, off, "unknown type definition %T", d)
}

func (s *vscope) handle(what string, idx uint32, off int) (vtype, error) {
	if err := s.idx(ast.SortType, idx, off, what); err != nil {
		return vtype{}, err
	}
	t := s.types[idx]
	if t.kind != vkResource && t.kind != vkUnknown {
		return t, Invalid(RuleHandle, off, "%s of type %d, which is a %s type, not a resource", what, idx, t.kind)
	}
	return t, nil
}

func (s *vscope) funcType(d *ast.FuncType, off int) (vtype, error) {
	labels := make([]string, len(d.Params))
	res := false
	for i, p := range d.Params {
		labels[i] = p.Name
		t, err := s.valType(p.Type, off, "func parameter "+p.Name)
		if err != nil {
			return vtype{}, err
		}
		res = res || t.res
	}
	if err := checkLabels("func parameter", labels, off); err != nil {
		return vtype{}, err
	}
	if d.Result != nil {
		r, err := s.valType(*d.Result, off, "func result")
		if err != nil {
			return vtype{}, err
		}
		if r.borrow {
			return vtype{}, Invalid(ruleBorrowResult, off, "func result contains a borrow handle (results can only return own handles)")
		}
		res = res || r.res
	}
	return vtype{kind: vkFunc, res: res}, nil
}

// coreType checks a core type definition: its indices, and for a module
// type the names and types it declares, as core validation would check a
// module's own (unique export names and import pairs, function types
// where functions are declared, limits in range).
func (s *vscope) coreType(d ast.CoreTypeDef, off int) error {
	mt, ok := d.(*ast.ModuleType)
	if !ok {
		s.push(ast.SortCoreType, vtype{kind: vkCoreFunc})
		return nil
	}
	ms := newVScope(s, true)
	imports := map[[2]string]bool{}
	exports := map[string]bool{}
	for _, decl := range mt.Decls {
		switch decl := decl.(type) {
		case *ast.CoreType:
			ms.push(ast.SortCoreType, vtype{kind: vkCoreFunc})
		case *ast.CoreOuterAlias:
			o := ms
			for range decl.Count {
				if o.outer == nil {
					return Invalid(ruleOuterCount, off, "module type outer alias: count %d reaches past the outermost scope", decl.Count)
				}
				o = o.outer
			}
			if err := o.idx(ast.SortCoreType, decl.Idx, off, "module type outer alias"); err != nil {
				return err
			}
			ms.push(ast.SortCoreType, vtype{kind: o.core[decl.Idx]})
		case *ast.CoreImport:
			k := [2]string{decl.Module, decl.Name}
			if imports[k] {
				return Invalid(ruleCoreNameDup, off, "module type: duplicate import name %q %q", decl.Module, decl.Name)
			}
			imports[k] = true
			if err := ms.coreExternDesc(decl.Desc, off, "module type import "+decl.Name); err != nil {
				return err
			}
		case *ast.CoreExportDecl:
			if exports[decl.Name] {
				return Invalid(ruleCoreNameDup, off, "module type: export name %q declared twice", decl.Name)
			}
			exports[decl.Name] = true
			if err := ms.coreExternDesc(decl.Desc, off, "module type export "+decl.Name); err != nil {
				return err
			}
		}
	}
	s.push(ast.SortCoreType, vtype{kind: vkCoreModule})
	return nil
}

// Core limits: 2^16 pages of 64 KiB for a 32-bit memory, 2^48 for a
// 64-bit one; tables are bounded only by their index type.
const (
	maxPages32 = 1 << 16
	maxPages64 = 1 << 48
)

// coreExternDesc checks a core extern type of a module type.
func (s *vscope) coreExternDesc(d ast.CoreExternDesc, off int, what string) error {
	switch d.Kind {
	case ast.SortCoreFunc, ast.SortCoreTag:
		if err := s.idx(ast.SortCoreType, d.TypeIdx, off, what); err != nil {
			return err
		}
		if k := s.core[d.TypeIdx]; k != vkCoreFunc && k != vkUnknown {
			return Invalid(RuleIndexSort, off, "%s: core type %d is a %s type, not a function type", what, d.TypeIdx, k)
		}
	case ast.SortCoreMemory:
		limit := uint64(maxPages32)
		if d.Memory.Is64 {
			limit = maxPages64
		}
		return coreLimits(d.Memory.Limits, limit, off, what+": memory size")
	case ast.SortCoreTable:
		limit := uint64(1<<32 - 1)
		if d.Table.Is64 {
			limit = 1<<64 - 1
		}
		return coreLimits(d.Table.Limits, limit, off, what+": table size")
	}
	return nil
}

func coreLimits(l ast.Limits, limit uint64, off int, what string) error {
	if l.Min > limit || (l.Max != nil && *l.Max > limit) {
		return Invalid(ruleCoreLimits, off, "%s must be at most %d", what, limit)
	}
	if l.Max != nil && *l.Max < l.Min {
		return Invalid(ruleCoreLimits, off, "%s: maximum %d below minimum %d", what, *l.Max, l.Min)
	}
	return nil
}

// decl checks one declarator of a component type or instance type.
func (s *vscope) decl(d ast.Decl, off int) error {
	switch d := d.(type) {
	case *ast.CoreType:
		return s.coreType(d.Type, off)
	case *ast.Type:
		t, err := s.typeDef(d.Type, d.Offset)
		if err != nil {
			return err
		}
		s.push(ast.SortType, t)
	case *ast.Alias:
		t, err := s.alias(d)
		if err != nil {
			return err
		}
		s.push(d.Sort, t)
	case *ast.Import:
		// The decoder admits imports only in component types.
		t, err := s.importDecl(d.Name, d.Attrs, d.Desc, d.Offset)
		if err != nil {
			return err
		}
		s.push(d.Desc.Sort(), t)
	case *ast.ExportDecl:
		t, err := s.exportDecl(d.Name, d.Attrs, d.Desc, d.Offset)
		if err != nil {
			return err
		}
		s.push(d.Desc.Sort(), t)
	}
	return nil
}
