package plan

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/wit"
)

// Abstract items: a component elaborated check-only (a nested component
// never instantiated, or a root importing core modules before the host
// supplies them) may import components, and instances that export
// instances, modules or components. Nothing runs them, so they stand for
// their declared types: an imported component is instantiated by checking
// the arguments against its imports and giving its exports, with each
// (sub resource) import replaced by its argument and each (sub resource)
// export a fresh resource type per instantiation. A plan that runs never
// holds them: the linker supplies functions, resources and core modules
// only, so a root importing anything else is refused.

// importedInstance builds the instance a root import of instance type it
// stands for; name (and the interface it implements, if it says) is what
// the linker looks its functions and resources up by.
func (e *elaborator) importedInstance(name, implements string, it *instanceType, nested bool, depth int) (*InstanceVal, error) {
	if depth > maxTypeDepth {
		return nil, fmt.Errorf("instances nested deeper than %d", maxTypeDepth)
	}
	v := newInstanceVal()
	for _, ex := range it.exports {
		_, fresh := ex.desc.(*wit.ResourceType)
		fresh = fresh && ex.fresh
		linked := ex.sort == ast.SortInstance || ex.sort == ast.SortType && !(nested && fresh) || ex.sort == ast.SortFunc && !nested
		if !e.checkOnly && !linked {
			return nil, fmt.Errorf("importing an instance that exports a %s (%q) at this depth is not supported: the linker supplies functions and resources of top-level instances only", ex.sort, ex.name)
		}
		switch ex.sort {
		case ast.SortFunc:
			fn, err := e.newFunc(ex.desc.(*wit.Func))
			if err != nil {
				return nil, err
			}
			fn.Imported, fn.Instance, fn.Name, fn.Implements = true, name, ex.name, implements
			v.add(ex.name, Item{Sort: ast.SortFunc, Func: fn})
		case ast.SortType:
			if rt, ok := ex.desc.(*wit.ResourceType); ok && fresh && !nested {
				e.p.ImportedResources = append(e.p.ImportedResources, ImportedResource{Instance: name, Name: ex.name, Implements: implements, Type: rt})
			}
			v.add(ex.name, Item{Sort: ast.SortType, typ: ex.desc})
		case ast.SortInstance:
			nt, ok := ex.desc.(*instanceType)
			if !ok {
				return nil, fmt.Errorf("export %q is not of an instance type", ex.name)
			}
			inner, err := e.importedInstance(name, "", nt, true, depth+1)
			if err != nil {
				return nil, err
			}
			v.add(ex.name, Item{Sort: ast.SortInstance, Inst: inner})
		case ast.SortCoreModule:
			v.add(ex.name, Item{Sort: ast.SortCoreModule, mod: &ast.CoreModule{}})
		case ast.SortComponent:
			v.add(ex.name, Item{Sort: ast.SortComponent, comp: abstractComponent(ex.desc)})
		}
	}
	return v, nil
}

// abstractComponent is an imported component of type desc.
func abstractComponent(desc any) *componentDef {
	ct, _ := desc.(*componentType)
	if ct == nil {
		ct = &componentType{}
	}
	return &componentDef{abstract: ct, instantiated: true, checked: true}
}

// instantiateAbstract instantiates an imported component: its arguments
// are checked against its imports and its exports are those its type
// declares, resources substituted.
func (e *elaborator) instantiateAbstract(s *scope, d *ast.Instantiate, ct *componentType, args map[string]Item) error {
	subst := map[*wit.ResourceType]*wit.ResourceType{}
	for _, imp := range ct.imports {
		it, ok := args[imp.name]
		if !ok {
			return validate.DefInvalid(d, validate.RuleArgMissing, "instantiate: import %q of the imported component has no argument", imp.name)
		}
		if it.Sort != imp.sort {
			return validate.DefInvalid(d, validate.RuleArgType, "instantiate argument %q is a %s, want a %s", imp.name, it.Sort, imp.sort)
		}
		what := fmt.Sprintf("instantiate argument %q", imp.name)
		if rt, ok := imp.desc.(*wit.ResourceType); ok && imp.fresh {
			got, ok := it.typ.(*wit.ResourceType)
			if !ok {
				return validate.DefInvalid(d, validate.RuleArgType, "%s is not a resource type", what)
			}
			subst[rt] = got
			continue
		}
		if err := checkFits(validate.RuleArgType, what, substDesc(imp.desc, subst), it, d.Offset); err != nil {
			return err
		}
	}
	for _, ex := range ct.exports {
		if rt, ok := ex.desc.(*wit.ResourceType); ok && ex.fresh {
			subst[rt] = &wit.ResourceType{Name: rt.Name}
		}
	}
	v := newInstanceVal()
	for _, ex := range ct.exports {
		it, err := e.abstractItem(ex.sort, substDesc(ex.desc, subst))
		if err != nil {
			return defError(d, "instantiate: export %q: %v", ex.name, err)
		}
		v.add(ex.name, it)
	}
	s.instances = append(s.instances, v)
	return nil
}

// abstractItem is an export of an instantiated imported component.
func (e *elaborator) abstractItem(sort ast.Sort, desc any) (Item, error) {
	switch sort {
	case ast.SortFunc:
		ft, ok := desc.(*wit.Func)
		if !ok {
			return Item{}, fmt.Errorf("not a function type")
		}
		fn, err := e.newFunc(ft)
		if err != nil {
			return Item{}, err
		}
		fn.Imported = true
		return Item{Sort: sort, Func: fn}, nil
	case ast.SortInstance:
		it, ok := desc.(*instanceType)
		if !ok {
			return Item{}, fmt.Errorf("not an instance type")
		}
		v, err := e.importedInstance("", "", it, true, 0)
		return Item{Sort: sort, Inst: v}, err
	case ast.SortCoreModule:
		return Item{Sort: sort, mod: &ast.CoreModule{}}, nil
	case ast.SortComponent:
		return Item{Sort: sort, comp: abstractComponent(desc)}, nil
	}
	return Item{Sort: sort, typ: desc}, nil
}

// substDesc replaces resource types in a declared type.
func substDesc(desc any, m map[*wit.ResourceType]*wit.ResourceType) any {
	if len(m) == 0 {
		return desc
	}
	switch d := desc.(type) {
	case *wit.ResourceType:
		if r, ok := m[d]; ok {
			return r
		}
		return d
	case *wit.Func:
		return substFunc(d, m)
	case *instanceType:
		out := &instanceType{exports: make([]typedExport, len(d.exports))}
		for i, ex := range d.exports {
			ex.desc = substDesc(ex.desc, m)
			out.exports[i] = ex
		}
		return out
	case wit.Type:
		return substType(d, m)
	}
	return desc
}

func substFunc(f *wit.Func, m map[*wit.ResourceType]*wit.ResourceType) *wit.Func {
	out := &wit.Func{Params: make([]wit.Param, len(f.Params)), Result: substType(f.Result, m)}
	for i, p := range f.Params {
		out.Params[i] = wit.Param{Name: p.Name, Type: substType(p.Type, m)}
	}
	return out
}

// substType copies t with resources replaced as m says.
func substType(t wit.Type, m map[*wit.ResourceType]*wit.ResourceType) wit.Type {
	res := func(r *wit.ResourceType) *wit.ResourceType {
		if n, ok := m[r]; ok {
			return n
		}
		return r
	}
	switch t := t.(type) {
	case *wit.Own:
		return &wit.Own{Named: t.Named, Resource: res(t.Resource)}
	case *wit.Borrow:
		return &wit.Borrow{Named: t.Named, Resource: res(t.Resource)}
	case *wit.List:
		return &wit.List{Named: t.Named, Elem: substType(t.Elem, m)}
	case *wit.Option:
		return &wit.Option{Named: t.Named, Elem: substType(t.Elem, m)}
	case *wit.Result:
		return &wit.Result{Named: t.Named, OK: substType(t.OK, m), Err: substType(t.Err, m)}
	case *wit.Tuple:
		out := &wit.Tuple{Named: t.Named, Types: make([]wit.Type, len(t.Types))}
		for i, m2 := range t.Types {
			out.Types[i] = substType(m2, m)
		}
		return out
	case *wit.Record:
		out := &wit.Record{Named: t.Named, Fields: make([]wit.Field, len(t.Fields))}
		for i, f := range t.Fields {
			out.Fields[i] = wit.Field{Name: f.Name, Type: substType(f.Type, m)}
		}
		return out
	case *wit.Variant:
		out := &wit.Variant{Named: t.Named, Cases: make([]wit.Case, len(t.Cases))}
		for i, c := range t.Cases {
			out.Cases[i] = wit.Case{Name: c.Name, Type: substType(c.Type, m)}
		}
		return out
	}
	return t
}
