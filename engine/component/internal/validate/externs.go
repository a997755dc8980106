package validate

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
)

// Rules about imports and exports (Binary.md, "Import and Export
// Definitions").
const (
	ruleExportSort = "externs.sort"       // only component-level items and core modules are exported
	RuleAscription = "externs.ascription" // an export's ascribed type fits the item
	RuleVisibility = "externs.visibility" // types used by an import or export are themselves imported or exported
	RuleArgType    = "instantiate.type"   // instantiation arguments have the types the component imports
	RuleArgMissing = "instantiate.arg"    // every import of an instantiated component is supplied
)

// implementsOnInstance: only instances may carry an implements
// attribute.
func implementsOnInstance(attrs ast.NameAttrs, kind ast.ExternKind, what, name string, off int) error {
	if attrs.HasImplements && kind != ast.ExternInstance {
		return Invalid(ruleImplements, off, "%s %q: only instances can have an `implements` attribute, this is a %s", what, name, kind)
	}
	return nil
}

// externDesc checks an extern type and returns what it puts in the type
// index space (for the type sort).
func (s *vscope) externDesc(d ast.ExternDesc, off int, what string) (vtype, error) {
	switch d.Kind {
	case ast.ExternCoreModule:
		if err := s.idx(ast.SortCoreType, d.TypeIdx, off, what); err != nil {
			return vtype{}, err
		}
		if k := s.core[d.TypeIdx]; k != vkCoreModule && k != vkUnknown {
			return vtype{}, Invalid(RuleIndexSort, off, "%s: core type %d is a %s type, not a module type", what, d.TypeIdx, k)
		}
		return vtype{}, nil
	case ast.ExternFunc:
		_, err := s.typeOf(d.TypeIdx, vkFunc, off, what)
		return vtype{}, err
	case ast.ExternComponent:
		_, err := s.typeOf(d.TypeIdx, vkComponent, off, what)
		return vtype{}, err
	case ast.ExternInstance:
		_, err := s.typeOf(d.TypeIdx, vkInstance, off, what)
		return vtype{}, err
	case ast.ExternType:
		if d.Bound == ast.BoundSubResource {
			return vtype{kind: vkResource, res: true}, nil
		}
		return s.typeOf(d.TypeIdx, vkUnknown, off, what)
	}
	return vtype{}, Invalid(RuleIndexSort, off, "%s: unknown extern kind %d", what, d.Kind)
}

// annotated checks that an annotated name names a function of a resource
// imported (or exported) earlier in the same scope; the function's type is
// checked during elaboration, where types are resolved.
func annotated(n externName, what, name string, kind ast.ExternKind, resources map[string]bool, off int) error {
	if n.annotation == "" {
		return nil
	}
	if kind != ast.ExternFunc {
		return Invalid(ruleAnnotation, off, "%s %q: [%s] names only functions, this is a %s", what, name, n.annotation, kind)
	}
	if !resources[n.resource] {
		return Invalid(ruleAnnotation, off, "%s %q: no resource %q is %sed before it in this scope", what, name, n.resource, what)
	}
	return nil
}

// importDecl checks an import (definition or component type declarator).
func (s *vscope) importDecl(name string, attrs ast.NameAttrs, d ast.ExternDesc, off int) (vtype, error) {
	n, err := checkExternName(s.imports, "import", name, attrs, off)
	if err != nil {
		return vtype{}, err
	}
	if err := implementsOnInstance(attrs, d.Kind, "import", name, off); err != nil {
		return vtype{}, err
	}
	t, err := s.externDesc(d, off, "import "+name)
	if err != nil {
		return t, err
	}
	if err := annotated(n, "import", name, d.Kind, s.resImps, off); err != nil {
		return t, err
	}
	if t.kind == vkResource && !n.iface {
		s.resImps[name] = true
	}
	return t, nil
}

// exportDecl checks an export declarator of a component or instance type.
func (s *vscope) exportDecl(name string, attrs ast.NameAttrs, d ast.ExternDesc, off int) (vtype, error) {
	n, err := checkExternName(s.exports, "export", name, attrs, off)
	if err != nil {
		return vtype{}, err
	}
	if err := implementsOnInstance(attrs, d.Kind, "export", name, off); err != nil {
		return vtype{}, err
	}
	t, err := s.externDesc(d, off, "export "+name)
	if err != nil {
		return t, err
	}
	return t, s.exported(n, name, d.Kind, t, off)
}

// exported applies what every export must satisfy once its type is known.
func (s *vscope) exported(n externName, name string, kind ast.ExternKind, t vtype, off int) error {
	if err := annotated(n, "export", name, kind, s.resExps, off); err != nil {
		return err
	}
	if kind == ast.ExternType && t.borrow {
		return Invalid(ruleBorrowExport, off, "export %q: an exported type cannot contain a borrow handle", name)
	}
	if t.kind == vkResource && !n.iface {
		s.resExps[name] = true
	}
	return nil
}

var sortKinds = map[ast.Sort]ast.ExternKind{
	ast.SortCoreModule: ast.ExternCoreModule, ast.SortFunc: ast.ExternFunc, ast.SortType: ast.ExternType,
	ast.SortComponent: ast.ExternComponent, ast.SortInstance: ast.ExternInstance,
}

func (s *vscope) export(d *ast.Export) (vtype, error) {
	n, err := checkExternName(s.exports, "export", d.Name, d.Attrs, d.Offset)
	if err != nil {
		return vtype{}, err
	}
	kind, ok := sortKinds[d.Sort]
	if !ok {
		return vtype{}, Invalid(ruleExportSort, d.Offset, "export %q: a %s cannot be exported (only component-level items and core modules)", d.Name, d.Sort)
	}
	if err := implementsOnInstance(d.Attrs, kind, "export", d.Name, d.Offset); err != nil {
		return vtype{}, err
	}
	if err := s.idx(d.Sort, d.Idx, d.Offset, "export "+d.Name); err != nil {
		return vtype{}, err
	}
	var t vtype
	if d.Sort == ast.SortType {
		t = s.types[d.Idx]
	}
	if d.Desc != nil {
		if d.Desc.Kind != kind {
			return t, Invalid(RuleAscription, d.Offset, "export %q: a %s ascribed the type of a %s", d.Name, kind, d.Desc.Kind)
		}
		at, err := s.externDesc(*d.Desc, d.Offset, "export "+d.Name)
		if err != nil {
			return t, err
		}
		if d.Sort == ast.SortType {
			if at.kind == vkResource && t.kind != vkResource && t.kind != vkUnknown {
				return t, Invalid(RuleAscription, d.Offset, "export %q: a %s type ascribed (sub resource)", d.Name, t.kind)
			}
			t.borrow = t.borrow || at.borrow
			if at.kind != vkUnknown {
				t.kind = at.kind
			}
		}
	}
	return t, s.exported(n, d.Name, kind, t, d.Offset)
}
