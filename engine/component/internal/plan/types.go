package plan

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/wit"
)

// typeDef resolves a type definition against the scope's type index space.
func (e *elaborator) typeDef(s *scope, d ast.TypeDef) (typeItem, error) {
	e.typeNodes++
	if e.typeNodes > maxTypeNodes {
		return nil, fmt.Errorf("more than %d type definitions", maxTypeNodes)
	}
	switch d := d.(type) {
	case ast.Primitive:
		return prim(d)
	case *ast.Record:
		r := &wit.Record{Fields: make([]wit.Field, len(d.Fields))}
		for i, f := range d.Fields {
			t, err := s.valType(f.Type)
			if err != nil {
				return nil, fmt.Errorf("record field %q: %w", f.Name, err)
			}
			r.Fields[i] = wit.Field{Name: f.Name, Type: t}
		}
		return r, nil
	case *ast.Variant:
		v := &wit.Variant{Cases: make([]wit.Case, len(d.Cases))}
		for i, c := range d.Cases {
			v.Cases[i].Name = c.Name
			if c.Type != nil {
				t, err := s.valType(*c.Type)
				if err != nil {
					return nil, fmt.Errorf("variant case %q: %w", c.Name, err)
				}
				v.Cases[i].Type = t
			}
		}
		return v, nil
	case *ast.List:
		t, err := s.valType(d.Elem)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		if d.Len > 0 {
			return &wit.FixedList{Elem: t, Len: d.Len}, nil
		}
		return &wit.List{Elem: t}, nil
	case *ast.Map:
		k, err := s.valType(d.Key)
		if err != nil {
			return nil, fmt.Errorf("map key: %w", err)
		}
		v, err := s.valType(d.Value)
		if err != nil {
			return nil, fmt.Errorf("map value: %w", err)
		}
		return &wit.Map{Key: k, Value: v}, nil
	case *ast.Tuple:
		tt := &wit.Tuple{Types: make([]wit.Type, len(d.Types))}
		for i, vt := range d.Types {
			t, err := s.valType(vt)
			if err != nil {
				return nil, fmt.Errorf("tuple: %w", err)
			}
			tt.Types[i] = t
		}
		return tt, nil
	case *ast.Flags:
		if len(d.Names) > 64 {
			return nil, fmt.Errorf("flags with %d members: at most 64 are supported", len(d.Names))
		}
		return &wit.Flags{Names: d.Names}, nil
	case *ast.Enum:
		return &wit.Enum{Cases: d.Names}, nil
	case *ast.Option:
		t, err := s.valType(d.Type)
		if err != nil {
			return nil, fmt.Errorf("option: %w", err)
		}
		return &wit.Option{Elem: t}, nil
	case *ast.Result:
		r := &wit.Result{}
		var err error
		if d.Ok != nil {
			if r.OK, err = s.valType(*d.Ok); err != nil {
				return nil, fmt.Errorf("result: %w", err)
			}
		}
		if d.Err != nil {
			if r.Err, err = s.valType(*d.Err); err != nil {
				return nil, fmt.Errorf("result: %w", err)
			}
		}
		return r, nil
	case *ast.Own:
		rt, err := s.resourceType(d.TypeIdx)
		if err != nil {
			return nil, fmt.Errorf("own: %w", err)
		}
		h := &wit.Own{Resource: rt}
		e.handleNamed[h] = s.named[int(d.TypeIdx)]
		return h, nil
	case *ast.Borrow:
		rt, err := s.resourceType(d.TypeIdx)
		if err != nil {
			return nil, fmt.Errorf("borrow: %w", err)
		}
		h := &wit.Borrow{Resource: rt}
		e.handleNamed[h] = s.named[int(d.TypeIdx)]
		return h, nil
	case *ast.FuncType:
		f := &wit.Func{Params: make([]wit.Param, len(d.Params))}
		for i, p := range d.Params {
			t, err := s.valType(p.Type)
			if err != nil {
				return nil, fmt.Errorf("func param %q: %w", p.Name, err)
			}
			f.Params[i] = wit.Param{Name: p.Name, Type: t}
		}
		if d.Result != nil {
			t, err := s.valType(*d.Result)
			if err != nil {
				return nil, fmt.Errorf("func result: %w", err)
			}
			f.Result = t
		}
		return f, nil
	case *ast.ResourceType:
		return &wit.ResourceType{}, nil
	case *ast.InstanceType:
		ts := &scope{outer: s, depth: s.depth + 1}
		it := &instanceType{}
		for _, decl := range d.Decls {
			ex, err := e.decl(ts, decl)
			if err != nil {
				return nil, err
			}
			if ex != nil {
				it.exports = append(it.exports, *ex)
			}
		}
		return it, nil
	case *ast.ComponentType:
		ts := &scope{outer: s, depth: s.depth + 1, compType: true}
		ct := &componentType{}
		for _, decl := range d.Decls {
			if imp, ok := decl.(*ast.Import); ok {
				t, err := e.externDesc(ts, imp.Name, imp.Desc)
				if err != nil {
					return nil, err
				}
				if err := e.declared(ts, imp.Name, t, true, imp.Offset); err != nil {
					return nil, err
				}
				fresh := imp.Desc.Kind == ast.ExternType && imp.Desc.Bound == ast.BoundSubResource
				ct.imports = append(ct.imports, typedExport{name: imp.Name, sort: imp.Desc.Sort(), desc: t, fresh: fresh})
				ts.nameIndex(imp.Desc.Sort())
				if err := pushDesc(ts, imp.Desc.Sort(), t); err != nil {
					return nil, err
				}
				continue
			}
			ex, err := e.decl(ts, decl)
			if err != nil {
				return nil, err
			}
			if ex != nil {
				ct.exports = append(ct.exports, *ex)
			}
		}
		return ct, nil
	}
	return nil, fmt.Errorf("unsupported type definition %T", d)
}

// decl processes one instance/component type declarator; it returns the
// export it declares, if any.
func (e *elaborator) decl(ts *scope, d ast.Decl) (*typedExport, error) {
	if ts.depth > maxTypeDepth {
		return nil, fmt.Errorf("types nested deeper than %d", maxTypeDepth)
	}
	switch d := d.(type) {
	case *ast.CoreType:
		ts.coreTypes = append(ts.coreTypes, d.Type)
	case *ast.Type:
		t, err := e.typeDef(ts, d.Type)
		if err != nil {
			return nil, err
		}
		if _, ok := t.(*wit.ResourceType); ok {
			return nil, fmt.Errorf("resource definitions are not allowed in a type declaration")
		}
		ts.types = append(ts.types, t)
	case *ast.Alias:
		switch d.Kind {
		case ast.AliasOuter:
			o := ts
			for range d.Count {
				if o.outer == nil {
					return nil, fmt.Errorf("outer alias: count %d reaches past the root", d.Count)
				}
				o = o.outer
			}
			if d.Sort == ast.SortCoreType {
				if int(d.Idx) >= len(o.coreTypes) {
					return nil, fmt.Errorf("outer alias: core type index %d out of range", d.Idx)
				}
				ts.coreTypes = append(ts.coreTypes, o.coreTypes[d.Idx])
				return nil, nil
			}
			if d.Sort != ast.SortType {
				return nil, fmt.Errorf("outer alias of a %s in a type declaration is not supported", d.Sort)
			}
			it, err := o.item(ast.SortType, d.Idx)
			if err != nil {
				return nil, fmt.Errorf("outer alias: %w", err)
			}
			if o.named[int(d.Idx)] {
				ts.nameIndex(ast.SortType) // an alias is the same type index, named or not
			}
			ts.types = append(ts.types, it.typ)
		case ast.AliasInstanceExport:
			if int(d.InstanceIdx) >= len(ts.instances) {
				return nil, fmt.Errorf("alias: instance index %d out of range", d.InstanceIdx)
			}
			it, ok := ts.instances[d.InstanceIdx].Exports[d.Name]
			if !ok || it.Sort != d.Sort {
				return nil, fmt.Errorf("alias: instance %d has no %s export %q", d.InstanceIdx, d.Sort, d.Name)
			}
			if ts.namedInst[int(d.InstanceIdx)] {
				ts.nameIndex(it.Sort)
			}
			return nil, ts.push(it)
		default:
			return nil, fmt.Errorf("%s alias in a type declaration is not supported", d.Kind)
		}
	case *ast.ExportDecl:
		t, err := e.externDesc(ts, d.Name, d.Desc)
		if err != nil {
			return nil, err
		}
		if err := e.declared(ts, d.Name, t, false, d.Offset); err != nil {
			return nil, err
		}
		ts.nameIndex(d.Desc.Sort())
		if err := pushDesc(ts, d.Desc.Sort(), t); err != nil {
			return nil, err
		}
		fresh := d.Desc.Kind == ast.ExternType && d.Desc.Bound == ast.BoundSubResource
		return &typedExport{name: d.Name, sort: d.Desc.Sort(), desc: t, fresh: fresh}, nil
	case *ast.Import:
		return nil, fmt.Errorf("instance types cannot declare imports")
	default:
		return nil, fmt.Errorf("unexpected declarator %T", d)
	}
	return nil, nil
}

// externDesc resolves the type of an imported or exported item declared in
// a type. Exported types get the export's name.
func (e *elaborator) externDesc(ts *scope, name string, d ast.ExternDesc) (any, error) {
	switch d.Kind {
	case ast.ExternFunc:
		return ts.funcType(d.TypeIdx)
	case ast.ExternType:
		if d.Bound == ast.BoundSubResource {
			return &wit.ResourceType{Name: name}, nil
		}
		if int(d.TypeIdx) >= len(ts.types) {
			return nil, fmt.Errorf("type index %d out of range", d.TypeIdx)
		}
		t := nominal(ts.types[d.TypeIdx])
		nameType(Item{Sort: ast.SortType, typ: t}, name)
		return t, nil
	case ast.ExternInstance:
		if int(d.TypeIdx) >= len(ts.types) {
			return nil, fmt.Errorf("type index %d out of range", d.TypeIdx)
		}
		it, ok := ts.types[d.TypeIdx].(*instanceType)
		if !ok {
			return nil, fmt.Errorf("type %d is not an instance type", d.TypeIdx)
		}
		return it, nil
	case ast.ExternComponent:
		if int(d.TypeIdx) >= len(ts.types) {
			return nil, fmt.Errorf("type index %d out of range", d.TypeIdx)
		}
		return ts.types[d.TypeIdx], nil
	case ast.ExternCoreModule:
		return nil, nil
	}
	return nil, fmt.Errorf("unknown extern kind %d", d.Kind)
}

// pushDesc appends a declared item to the type scope's index space, so
// later declarators can alias into instances declared earlier.
func pushDesc(ts *scope, sort ast.Sort, desc any) error {
	switch sort {
	case ast.SortType:
		ts.types = append(ts.types, desc)
	case ast.SortFunc:
		ts.funcs = append(ts.funcs, &Func{Type: desc.(*wit.Func)})
	case ast.SortInstance:
		v := newInstanceVal()
		if it, ok := desc.(*instanceType); ok {
			for _, ex := range it.exports {
				switch ex.sort {
				case ast.SortType:
					v.add(ex.name, Item{Sort: ast.SortType, typ: ex.desc})
				case ast.SortFunc:
					v.add(ex.name, Item{Sort: ast.SortFunc, Func: &Func{Type: ex.desc.(*wit.Func)}})
				case ast.SortInstance:
					if nested, ok := ex.desc.(*instanceType); ok {
						v.add(ex.name, Item{Sort: ast.SortInstance, Inst: instanceView(nested)})
					}
				}
			}
		}
		ts.instances = append(ts.instances, v)
	case ast.SortComponent:
		ts.components = append(ts.components, nil)
	case ast.SortCoreModule:
		ts.coreModules = append(ts.coreModules, nil)
	}
	return nil
}

func (s *scope) valType(v ast.ValType) (wit.Type, error) {
	if v.IsPrim() {
		return prim(v.Prim)
	}
	if int(v.Idx) >= len(s.types) {
		return nil, fmt.Errorf("type index %d out of range", v.Idx)
	}
	t, ok := s.types[v.Idx].(wit.Type)
	if !ok {
		return nil, &kindError{rule: validate.RuleValType, msg: fmt.Sprintf("type %d is not a value type", v.Idx)}
	}
	return t, nil
}

func (s *scope) resourceType(idx uint32) (*wit.ResourceType, error) {
	if int(idx) >= len(s.types) {
		return nil, fmt.Errorf("type index %d out of range", idx)
	}
	rt, ok := s.types[idx].(*wit.ResourceType)
	if !ok {
		return nil, &kindError{rule: validate.RuleHandle, msg: fmt.Sprintf("type %d is not a resource type", idx)}
	}
	return rt, nil
}

func prim(p ast.Primitive) (wit.Type, error) {
	if p < ast.PrimBool || p > ast.PrimString {
		return nil, fmt.Errorf("invalid primitive type %d", p)
	}
	// ast.Primitive and wit.Kind number the primitives in the same order.
	return wit.Prim(wit.KindBool + wit.Kind(p-ast.PrimBool)), nil
}

// setTypeName names an anonymous type after the name it is exported under.
func setTypeName(t wit.Type, name string) {
	var n *wit.Named
	switch t := t.(type) {
	case *wit.List:
		n = &t.Named
	case *wit.FixedList:
		n = &t.Named
	case *wit.Map:
		n = &t.Named
	case *wit.Record:
		n = &t.Named
	case *wit.Tuple:
		n = &t.Named
	case *wit.Variant:
		n = &t.Named
	case *wit.Enum:
		n = &t.Named
	case *wit.Option:
		n = &t.Named
	case *wit.Result:
		n = &t.Named
	case *wit.Flags:
		n = &t.Named
	case *wit.Own:
		n = &t.Named
	case *wit.Borrow:
		n = &t.Named
	}
	if n != nil && n.Name == "" {
		n.Name = name
	}
}

// kindError is a type index naming the wrong kind of type, found during
// elaboration where the structural pass could not tell (a type aliased
// from an instance's exports).
type kindError struct{ rule, msg string }

func (e *kindError) Error() string { return e.msg }
