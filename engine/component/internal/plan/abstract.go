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
	// Each import of an instance type has resource types of its own: two
	// imports of one type do not share them.
	fresh := map[*wit.ResourceType]*wit.ResourceType{}
	for _, ex := range it.exports {
		if rt, ok := ex.desc.(*wit.ResourceType); ok && ex.fresh {
			fresh[rt] = &wit.ResourceType{Name: rt.Name}
		}
	}
	su := newSubstituter(fresh, e.handleNamed)
	v := newInstanceVal()
	for _, ex := range it.exports {
		ex.desc = su.desc(ex.desc)
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
	su := newSubstituter(subst, e.handleNamed)
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
		if err := checkFits(validate.RuleArgType, what, su.desc(imp.desc), it, d.Offset); err != nil {
			return err
		}
	}
	for _, ex := range ct.exports {
		if rt, ok := ex.desc.(*wit.ResourceType); ok && ex.fresh {
			subst[rt] = &wit.ResourceType{Name: rt.Name}
		}
	}
	su = newSubstituter(subst, e.handleNamed)
	v := newInstanceVal()
	for _, ex := range ct.exports {
		it, err := e.abstractItem(ex.sort, su.desc(ex.desc))
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

// substituter replaces resource types in declared types. A handle it
// copies keeps the visibility of the handle it copies (handleNamed).
type substituter struct {
	m     map[*wit.ResourceType]*wit.ResourceType
	named map[any]bool
	done  map[wit.Type]wit.Type
}

func newSubstituter(m map[*wit.ResourceType]*wit.ResourceType, named map[any]bool) substituter {
	return substituter{m: m, named: named, done: map[wit.Type]wit.Type{}}
}

// desc replaces resource types in a declared type.
func (su substituter) desc(desc any) any {
	if len(su.m) == 0 {
		return desc
	}
	switch d := desc.(type) {
	case *wit.ResourceType:
		if r, ok := su.m[d]; ok {
			return r
		}
		return d
	case *wit.Func:
		return su.fn(d)
	case *instanceType:
		out := &instanceType{exports: make([]typedExport, len(d.exports))}
		for i, ex := range d.exports {
			ex.desc = su.desc(ex.desc)
			out.exports[i] = ex
		}
		return out
	case wit.Type:
		return su.typ(d)
	}
	return desc
}

func (su substituter) fn(f *wit.Func) *wit.Func {
	out := &wit.Func{Params: make([]wit.Param, len(f.Params)), Result: su.typ(f.Result)}
	for i, p := range f.Params {
		out.Params[i] = wit.Param{Name: p.Name, Type: su.typ(p.Type)}
	}
	return out
}

// typ is t with resources replaced: t itself when it refers to none of
// them, else a copy, made once per type so that a type and its uses stay
// one type.
func (su substituter) typ(t wit.Type) wit.Type {
	if t == nil {
		return nil
	}
	if out, ok := su.done[t]; ok {
		return out
	}
	changed := false
	sub := func(m wit.Type) wit.Type {
		n := su.typ(m)
		changed = changed || n != m
		return n
	}
	res := func(r *wit.ResourceType) *wit.ResourceType {
		if n, ok := su.m[r]; ok {
			changed = true
			return n
		}
		return r
	}
	var out wit.Type
	switch t := t.(type) {
	case *wit.Own:
		out = &wit.Own{Named: t.Named, Resource: res(t.Resource)}
	case *wit.Borrow:
		out = &wit.Borrow{Named: t.Named, Resource: res(t.Resource)}
	case *wit.List:
		out = &wit.List{Named: t.Named, Elem: sub(t.Elem)}
	case *wit.FixedList:
		out = &wit.FixedList{Named: t.Named, Elem: sub(t.Elem), Len: t.Len}
	case *wit.Map:
		out = &wit.Map{Named: t.Named, Key: sub(t.Key), Value: sub(t.Value)}
	case *wit.Option:
		out = &wit.Option{Named: t.Named, Elem: sub(t.Elem)}
	case *wit.Result:
		out = &wit.Result{Named: t.Named, OK: sub(t.OK), Err: sub(t.Err)}
	case *wit.Tuple:
		tt := &wit.Tuple{Named: t.Named, Types: make([]wit.Type, len(t.Types))}
		for i, m := range t.Types {
			tt.Types[i] = sub(m)
		}
		out = tt
	case *wit.Record:
		r := &wit.Record{Named: t.Named, Fields: make([]wit.Field, len(t.Fields))}
		for i, f := range t.Fields {
			r.Fields[i] = wit.Field{Name: f.Name, Type: sub(f.Type)}
		}
		out = r
	case *wit.Variant:
		v := &wit.Variant{Named: t.Named, Cases: make([]wit.Case, len(t.Cases))}
		for i, c := range t.Cases {
			v.Cases[i] = wit.Case{Name: c.Name, Type: sub(c.Type)}
		}
		out = v
	default:
		out = t
	}
	if !changed {
		out = t
	} else if su.named[t] {
		su.named[out] = true
	}
	su.done[t] = out
	return out
}
