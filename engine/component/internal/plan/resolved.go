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
		// Subtyping of function types compares parameter names too (the
		// host linker, matching WIT definitions, does not ask for them).
		for i, p := range ft.Params {
			if got := it.Func.Type.Params[i].Name; got != p.Name {
				return validate.Invalid(rule, off, "%s: expected parameter named %q, found %q", what, p.Name, got)
			}
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
