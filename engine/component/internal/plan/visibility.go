package plan

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/wit"
)

// External visibility (Explainer.md, "External visibility of types"): a
// type an import or export uses must itself be imported or exported by
// the same component (or component or instance type), under the very type
// index the use names. Visibility is therefore kept per scope, and a type
// becomes visible by the index an import or export introduces, never by
// the definition behind it:
//
//   - importing or exporting a record, variant, enum or flags type gives
//     the new index a copy of the definition (structurally equal, so every
//     type comparison is unchanged), and only the copy is visible;
//   - a resource keeps its identity, so an own or borrow handle is visible
//     only if the index it was made from was introduced by an import, an
//     export or an alias of a named instance's export (handleNamed), and
//     its resource is visible;
//   - importing or exporting an instance makes the types it exports
//     visible, and what its functions and types use must be.
//
// Imports may use only imported types; exports may use both.

// vis returns the scope's visible set for imports or exports.
func (s *scope) vis(imports bool) map[any]bool {
	if s.visImp == nil {
		s.visImp, s.visExp = map[any]bool{}, map[any]bool{}
	}
	if imports {
		return s.visImp
	}
	return s.visExp
}

func (s *scope) visible(t any, imports bool) bool {
	return s.visImp[t] || (!imports && s.visExp[t])
}

// nameIndex records that the next type (or instance) index is introduced
// by an import or export, or aliased from a named instance.
func (s *scope) nameIndex(sort ast.Sort) {
	if s.named == nil {
		s.named, s.namedInst = map[int]bool{}, map[int]bool{}
	}
	switch sort {
	case ast.SortType:
		s.named[len(s.types)] = true
	case ast.SortInstance:
		s.namedInst[len(s.instances)] = true
	}
}

// nominal copies a record, variant, enum or flags definition for the new
// index an import or export introduces; other types are returned as is.
func nominal(t typeItem) typeItem {
	switch t := t.(type) {
	case *wit.Record:
		c := *t
		return &c
	case *wit.Variant:
		c := *t
		return &c
	case *wit.Enum:
		c := *t
		return &c
	case *wit.Flags:
		c := *t
		return &c
	}
	return t
}

// markVisible makes an imported or exported type visible in s.
func (s *scope) markVisible(t any, imports bool) {
	switch t.(type) {
	case *wit.ResourceType, *wit.Record, *wit.Variant, *wit.Enum, *wit.Flags:
		s.vis(imports)[t] = true
	}
}

// registerInstance makes the types an imported or exported instance
// exports, at any depth, visible in s.
func (s *scope) registerInstance(v *InstanceVal, imports bool, depth int) {
	if depth > maxTypeDepth {
		return
	}
	for _, name := range v.Names {
		switch it := v.Exports[name]; it.Sort {
		case ast.SortType:
			s.markVisible(it.typ, imports)
		case ast.SortInstance:
			s.registerInstance(it.Inst, imports, depth+1)
		}
	}
}

// checkVisible checks that a function type uses only visible types.
func (e *elaborator) checkVisible(s *scope, what string, ft *wit.Func, imports bool, off int) error {
	for _, p := range ft.Params {
		if err := e.checkValVisible(s, what, p.Type, false, imports, off); err != nil {
			return err
		}
	}
	return e.checkValVisible(s, what, ft.Result, false, imports, off)
}

// checkValVisible checks the types a value type refers to; top is the
// type an import or export names itself, visible by that.
func (e *elaborator) checkValVisible(s *scope, what string, t wit.Type, top bool, imports bool, off int) error {
	seen := map[wit.Type]bool{}
	var visit func(t wit.Type, top bool) error
	need := func(t any, desc string) error {
		if !s.visible(t, imports) {
			return validate.Invalid(validate.RuleVisibility, off, "%s uses a %s type that is not %s under the index it is named by (import or export the type and use the index that introduces)", what, desc, map[bool]string{true: "imported", false: "imported or exported"}[imports])
		}
		return nil
	}
	named := func(t wit.Type, desc string, top bool) error {
		if top {
			return nil
		}
		return need(t, desc)
	}
	handle := func(node wit.Type, rt *wit.ResourceType) error {
		if !e.handleNamed[node] {
			return need(node, "resource") // a handle node is never in the set: fails
		}
		return need(rt, "resource")
	}
	visit = func(t wit.Type, top bool) error {
		if t == nil || seen[t] {
			return nil
		}
		if _, prim := t.(wit.Prim); prim {
			return nil
		}
		seen[t] = true
		switch t := t.(type) {
		case *wit.Record:
			if err := named(t, "record", top); err != nil {
				return err
			}
			for _, f := range t.Fields {
				if err := visit(f.Type, false); err != nil {
					return err
				}
			}
		case *wit.Variant:
			if err := named(t, "variant", top); err != nil {
				return err
			}
			for _, c := range t.Cases {
				if err := visit(c.Type, false); err != nil {
					return err
				}
			}
		case *wit.Enum:
			return named(t, "enum", top)
		case *wit.Flags:
			return named(t, "flags", top)
		case *wit.Own:
			return handle(t, t.Resource)
		case *wit.Borrow:
			return handle(t, t.Resource)
		case *wit.List:
			return visit(t.Elem, false)
		case *wit.FixedList:
			return visit(t.Elem, false)
		case *wit.Map:
			if err := visit(t.Key, false); err != nil {
				return err
			}
			return visit(t.Value, false)
		case *wit.Option:
			return visit(t.Elem, false)
		case *wit.Result:
			if err := visit(t.OK, false); err != nil {
				return err
			}
			return visit(t.Err, false)
		case *wit.Tuple:
			for _, m := range t.Types {
				if err := visit(m, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return visit(t, top)
}

// checkTypeVisible checks an imported or exported type: what a value type
// refers to, a function type's parameters and result, an instance type's
// exports.
func (e *elaborator) checkTypeVisible(s *scope, what string, t typeItem, imports bool, off int) error {
	switch t := t.(type) {
	case *wit.Func:
		return e.checkVisible(s, what, t, imports, off)
	case *instanceType:
		return e.checkInstanceTypeVisible(what, t, off)
	case wit.Type:
		return e.checkValVisible(s, what, t, true, imports, off)
	}
	return nil
}

// checkInstanceTypeVisible checks an instance type that an import or
// export names as a type: its exports may use only what it exports.
func (e *elaborator) checkInstanceTypeVisible(what string, it *instanceType, off int) error {
	ts := &scope{}
	v := instanceView(it)
	ts.registerInstance(v, false, 0)
	return e.checkInstanceVisible(ts, what, v, false, off)
}

// instanceView is the InstanceVal an instance type describes, for checks.
func instanceView(it *instanceType) *InstanceVal {
	v := newInstanceVal()
	for _, ex := range it.exports {
		switch ex.sort {
		case ast.SortType:
			v.add(ex.name, Item{Sort: ast.SortType, typ: ex.desc})
		case ast.SortFunc:
			if ft, ok := ex.desc.(*wit.Func); ok {
				v.add(ex.name, Item{Sort: ast.SortFunc, Func: &Func{Type: ft}})
			}
		case ast.SortInstance:
			if nested, ok := ex.desc.(*instanceType); ok {
				v.add(ex.name, Item{Sort: ast.SortInstance, Inst: instanceView(nested)})
			}
		}
	}
	return v
}

// checkInstanceVisible checks what an imported or exported instance's
// functions and types use.
func (e *elaborator) checkInstanceVisible(s *scope, what string, v *InstanceVal, imports bool, off int) error {
	return e.checkInstanceDepth(s, what, v, imports, off, 0)
}

func (e *elaborator) checkInstanceDepth(s *scope, what string, v *InstanceVal, imports bool, off, depth int) error {
	if depth > maxTypeDepth {
		return fmt.Errorf("instances nested deeper than %d", maxTypeDepth)
	}
	for _, name := range v.Names {
		it := v.Exports[name]
		w := fmt.Sprintf("%s %q", what, name)
		var err error
		switch it.Sort {
		case ast.SortFunc:
			err = e.checkVisible(s, "function "+w, it.Func.Type, imports, off)
		case ast.SortType:
			err = e.checkTypeVisible(s, "type "+w, it.typ, imports, off)
		case ast.SortInstance:
			err = e.checkInstanceDepth(s, w, it.Inst, imports, off, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkExtern applies the resolved-type rules to an import (imports true)
// or export of a component: types become visible and resources nameable,
// annotated functions have the right types, and what functions, types and
// instances use is visible. it is the item as declared (for an
// instantiation argument, as the nested component's import declares it).
func (e *elaborator) checkExtern(s *scope, name string, it Item, imports bool, off int) error {
	what := "export"
	if imports {
		what = "import"
	}
	what = fmt.Sprintf("%s %q", what, name)
	rn := s.resources(imports)
	switch it.Sort {
	case ast.SortType:
		s.markVisible(it.typ, imports)
		rn.note(name, it.typ)
		return e.checkTypeVisible(s, what, it.typ, imports, off)
	case ast.SortFunc:
		if err := validate.AnnotatedFunc(name, it.Func.Type, rn, off); err != nil {
			return err
		}
		return e.checkVisible(s, what, it.Func.Type, imports, off)
	case ast.SortInstance:
		s.registerInstance(it.Inst, imports, 0)
		return e.checkInstanceVisible(s, what, it.Inst, imports, off)
	}
	return nil
}

// declared applies the same rules to an import or export declarator of a
// component or instance type; desc is what externDesc resolved. A
// component type's declarators are checked at once; an instance type's
// when an import or export uses it.
func (e *elaborator) declared(ts *scope, name string, desc any, imports bool, off int) error {
	rn := ts.resources(imports)
	what := fmt.Sprintf("%s %q", map[bool]string{true: "import", false: "export"}[imports], name)
	switch d := desc.(type) {
	case *wit.Func:
		if err := validate.AnnotatedFunc(name, d, rn, off); err != nil {
			return err
		}
		if ts.compType {
			return e.checkVisible(ts, what, d, imports, off)
		}
	case *instanceType:
		v := instanceView(d)
		ts.registerInstance(v, imports, 0)
		if ts.compType {
			return e.checkInstanceVisible(ts, what, v, imports, off)
		}
	case *componentType, nil:
	default:
		ts.markVisible(d, imports)
		rn.note(name, d)
		if ts.compType {
			return e.checkTypeVisible(ts, what, d, imports, off)
		}
	}
	return nil
}
