package plan

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/wit"
)

// Checks that need resolved types; elaboration calls them as it walks.

// resourceNames maps the plain names resources were imported or exported
// under in one scope, for the annotated function names that refer to them.
type resourceNames map[string]*wit.ResourceType

// noteResource records an imported or exported resource type by name.
func (rn resourceNames) note(name string, t any) {
	if rt, ok := t.(*wit.ResourceType); ok {
		rn[name] = rt
	}
}

// checkVisible checks that every resource, record, variant, enum and flags
// type a function's type uses was itself imported or exported, so users of
// the import or export can name it.
func (e *elaborator) checkVisible(what string, ft *wit.Func, off int) error {
	seen := map[wit.Type]bool{}
	var visit func(t wit.Type) error
	need := func(t any, desc string) error {
		if !e.visible[t] {
			return validate.Invalid(validate.RuleVisibility, off, "%s uses a %s type that is neither imported nor exported (export or import the type and use that index)", what, desc)
		}
		return nil
	}
	visit = func(t wit.Type) error {
		if t == nil || seen[t] {
			return nil
		}
		if _, prim := t.(wit.Prim); prim {
			return nil
		}
		seen[t] = true
		switch t := t.(type) {
		case *wit.Record:
			if err := need(t, "record"); err != nil {
				return err
			}
			for _, f := range t.Fields {
				if err := visit(f.Type); err != nil {
					return err
				}
			}
		case *wit.Variant:
			if err := need(t, "variant"); err != nil {
				return err
			}
			for _, c := range t.Cases {
				if err := visit(c.Type); err != nil {
					return err
				}
			}
		case *wit.Enum:
			return need(t, "enum")
		case *wit.Flags:
			return need(t, "flags")
		case *wit.Own:
			return need(t.Resource, "resource")
		case *wit.Borrow:
			return need(t.Resource, "resource")
		case *wit.List:
			return visit(t.Elem)
		case *wit.Option:
			return visit(t.Elem)
		case *wit.Result:
			if err := visit(t.OK); err != nil {
				return err
			}
			return visit(t.Err)
		case *wit.Tuple:
			for _, m := range t.Types {
				if err := visit(m); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, p := range ft.Params {
		if err := visit(p.Type); err != nil {
			return err
		}
	}
	return visit(ft.Result)
}

// makeVisible marks a type as named by an import or export.
func (e *elaborator) makeVisible(t any) {
	switch t := t.(type) {
	case *wit.ResourceType, *wit.Record, *wit.Variant, *wit.Enum, *wit.Flags:
		e.visible[t] = true
	}
}

// checkInstanceVisible checks the functions an exported or imported
// instance carries.
func (e *elaborator) checkInstanceVisible(what string, v *InstanceVal, off int) error {
	for _, name := range v.Names {
		if it := v.Exports[name]; it.Sort == ast.SortFunc {
			if err := e.checkVisible(fmt.Sprintf("%s function %q", what, name), it.Func.Type, off); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFits checks an item against a declared type: an instantiation
// argument against the nested component's import, or an export against its
// ascribed type. A declared (sub resource) type is bound to the item's
// resource as an instance's exports are checked in order, so two resources
// are never taken for one another. rule and what describe the failure.
func checkFits(rule, what string, declared any, it Item, off int) error {
	switch it.Sort {
	case ast.SortFunc:
		ft, ok := declared.(*wit.Func)
		if !ok {
			return nil
		}
		if err := FuncTypesMatch(it.Func.Type, ft, nil); err != nil {
			return validate.Invalid(rule, off, "%s: function type differs: %v", what, err)
		}
	case ast.SortType:
		if err := checkExportType(typedExport{sort: ast.SortType, desc: declared}, it, nil); err != nil {
			return validate.Invalid(rule, off, "%s: %v", what, err)
		}
	case ast.SortInstance:
		it2, ok := declared.(*instanceType)
		if !ok {
			return nil
		}
		bound := map[*wit.ResourceType]*wit.ResourceType{}
		for _, ex := range it2.exports {
			got, ok := it.Inst.Exports[ex.name]
			if !ok {
				return validate.Invalid(rule, off, "%s has no export %q", what, ex.name)
			}
			if got.Sort != ex.sort {
				return validate.Invalid(rule, off, "%s: export %q is a %s, want a %s", what, ex.name, got.Sort, ex.sort)
			}
			if err := checkExportType(ex, got, bound); err != nil {
				return validate.Invalid(rule, off, "%s: export %q: %v", what, ex.name, err)
			}
		}
	}
	return nil
}

// checkExportType checks one export of an instance against its declared
// type; bound maps the declaration's fresh resources to the real ones.
func checkExportType(ex typedExport, got Item, bound map[*wit.ResourceType]*wit.ResourceType) error {
	switch ex.sort {
	case ast.SortFunc:
		want, _ := ex.desc.(*wit.Func)
		if want == nil {
			return nil
		}
		return FuncTypesMatch(want, got.Func.Type, bound)
	case ast.SortType:
		switch want := ex.desc.(type) {
		case *wit.ResourceType:
			rt, ok := got.typ.(*wit.ResourceType)
			if !ok {
				return fmt.Errorf("want a resource type")
			}
			if ex.fresh {
				if bound != nil {
					bound[want] = rt
				}
				return nil
			}
			return resourcesMatch(want, rt, bound)
		case wit.Type:
			gt, ok := got.typ.(wit.Type)
			if !ok {
				return fmt.Errorf("want a value type")
			}
			return TypesMatch(want, gt, bound)
		}
	}
	return nil
}

// checkExtern applies the resolved-type rules to an import (imports true)
// or export of a component: types become visible and resources nameable,
// annotated functions have the right types, and functions only use types
// that are visible.
func (e *elaborator) checkExtern(s *scope, name string, it Item, imports bool, off int) error {
	what := "export"
	if imports {
		what = "import"
	}
	rn := s.resources(imports)
	switch it.Sort {
	case ast.SortType:
		e.makeVisible(it.typ)
		rn.note(name, it.typ)
	case ast.SortFunc:
		if err := validate.AnnotatedFunc(name, it.Func.Type, rn, off); err != nil {
			return err
		}
		return e.checkVisible(fmt.Sprintf("%s %q", what, name), it.Func.Type, off)
	case ast.SortInstance:
		return e.checkInstanceVisible(fmt.Sprintf("%s %q:", what, name), it.Inst, off)
	}
	return nil
}

// declared applies the same rules to an import or export declarator of a
// component or instance type; desc is what externDesc resolved.
func (e *elaborator) declared(ts *scope, name string, desc any, imports bool, off int) error {
	rn := ts.resources(imports)
	switch d := desc.(type) {
	case *wit.Func:
		return validate.AnnotatedFunc(name, d, rn, off)
	case *instanceType, *componentType, nil:
	default:
		e.makeVisible(d)
		rn.note(name, d)
	}
	return nil
}

// checkCanon checks the options of a lift or lower against its function
// type and records the core type realloc must have. (The memory option is
// a memory: the memory index space only holds aliases checked as such.)
func (e *elaborator) checkCanon(ft *wit.Func, o CanonOpts, lift bool, off int) error {
	if err := checkCanonOptions(ft, o, lift, off); err != nil {
		return err
	}
	if o.Realloc != nil {
		e.p.requireFunc(*o.Realloc, sigRealloc, validate.RuleCanonReallocType, "realloc", off)
	}
	return nil
}
