package validate

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
)

// Rules about index spaces and aliases (Binary.md, "Alias Definitions").
const (
	ruleIndex         = "index.bounds"         // every index names an existing entry
	RuleIndexSort     = "index.sort"           // a type index names a type of the kind required
	ruleOuterCount    = "alias.outer-count"    // an outer alias stays inside the enclosing scopes
	ruleOuterResource = "alias.outer-resource" // outer aliases across a component do not carry resources
	RuleAliasExport   = "alias.export"         // an aliased export exists with the sort named
)

// vkind is what a type index holds, as far as the structural pass can tell
// (aliases of instance exports are unknown until elaboration).
type vkind uint8

const (
	vkUnknown vkind = iota
	vkValue
	vkFunc
	vkComponent
	vkInstance
	vkResource
	vkCoreFunc   // core types only
	vkCoreModule // core types only
)

func (k vkind) String() string {
	return [...]string{"unknown", "value", "function", "component", "instance", "resource", "core function", "core module"}[k]
}

// vtype is a type index entry of the structural pass. borrow: the value
// type transitively contains a borrow handle; res: the type transitively
// refers to a resource type (of its own scope or, for a component or
// instance type, from outside it).
type vtype struct {
	kind   vkind
	borrow bool
	res    bool
	// lay is a value type's layout in linear memory (size.go).
	lay layout
}

// vscope is one component, component type or instance type during the
// structural pass: the size of every index space and the kinds of its
// types, plus the names it has imported and exported so far.
type vscope struct {
	outer    *vscope
	isType   bool
	n        map[ast.Sort]int
	types    []vtype
	core     []vkind // what each core type index holds
	imports  nameSet
	exports  nameSet
	resImps  map[string]bool
	resExps  map[string]bool
	coreMods *[]*ast.CoreModule
	// outerRes: an outer alias in this type scope (or a type scope in
	// it) names a type outside it that refers to resources.
	outerRes bool
}

func newVScope(outer *vscope, isType bool) *vscope {
	s := &vscope{outer: outer, isType: isType, n: map[ast.Sort]int{}, imports: nameSet{}, exports: nameSet{},
		resImps: map[string]bool{}, resExps: map[string]bool{}}
	if outer != nil {
		s.coreMods = outer.coreMods
	}
	return s
}

// Structure is the first validation pass: it walks every
// definition of the component, nested components and types included
// (whether or not they are ever instantiated), checking names, index
// bounds and the well-formedness of types. It returns every core module
// it met, for validation by the core engine.
func Structure(c *ast.Component) ([]*ast.CoreModule, error) {
	var mods []*ast.CoreModule
	s := newVScope(nil, false)
	s.coreMods = &mods
	if err := s.component(c); err != nil {
		return nil, err
	}
	return mods, nil
}

func (s *vscope) component(c *ast.Component) error {
	for _, d := range c.Defs {
		if err := s.def(d); err != nil {
			return err
		}
	}
	return nil
}

// idx checks that idx is in range of the sort's index space.
func (s *vscope) idx(sort ast.Sort, idx uint32, off int, what string) error {
	if n := s.n[sort]; int64(idx) >= int64(n) {
		return Invalid(ruleIndex, off, "%s: %s index %d out of range (%d defined)", what, sort, idx, n)
	}
	return nil
}

// typeOf returns type idx, which must be in range and (unless its kind is
// unknown) of kind want; vkUnknown accepts any kind.
func (s *vscope) typeOf(idx uint32, want vkind, off int, what string) (vtype, error) {
	if err := s.idx(ast.SortType, idx, off, what); err != nil {
		return vtype{}, err
	}
	t := s.types[idx]
	if want != vkUnknown && t.kind != vkUnknown && t.kind != want {
		return t, Invalid(RuleIndexSort, off, "%s: type %d is a %s type, not a %s type", what, idx, t.kind, want)
	}
	return t, nil
}

func (s *vscope) push(sort ast.Sort, t vtype) {
	s.n[sort]++
	switch sort {
	case ast.SortType:
		s.types = append(s.types, t)
	case ast.SortCoreType:
		s.core = append(s.core, t.kind)
	}
}

func (s *vscope) def(d ast.Def) error {
	off := ast.DefOffset(d)
	switch d := d.(type) {
	case *ast.CoreModule:
		if err := CoreModule(d); err != nil {
			return err
		}
		*s.coreMods = append(*s.coreMods, d)
	case *ast.CoreInstantiate:
		if err := s.idx(ast.SortCoreModule, d.ModuleIdx, off, "core instantiate"); err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, a := range d.Args {
			if seen[a.Name] {
				return Invalid(ruleArgNameDup, off, "core instantiate: argument %q given twice", a.Name)
			}
			seen[a.Name] = true
			if err := s.idx(ast.SortCoreInstance, a.InstanceIdx, off, "core instantiate argument "+a.Name); err != nil {
				return err
			}
		}
	case *ast.CoreInstanceExports:
		seen := map[string]bool{}
		for _, ex := range d.Exports {
			if seen[ex.Name] {
				return Invalid(ruleCoreNameDup, off, "core instance: export %q given twice", ex.Name)
			}
			seen[ex.Name] = true
			if err := s.idx(ex.Sort, ex.Idx, off, "core instance export "+ex.Name); err != nil {
				return err
			}
		}
	case *ast.CoreType:
		return s.coreType(d.Type, off)
	case *ast.NestedComponent:
		if err := newVScope(s, false).component(d.Component); err != nil {
			return err
		}
	case *ast.Instantiate:
		if err := s.idx(ast.SortComponent, d.ComponentIdx, off, "instantiate"); err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, a := range d.Args {
			if seen[a.Name] {
				return Invalid(ruleArgNameDup, off, "instantiate: argument %q given twice", a.Name)
			}
			seen[a.Name] = true
			if err := s.idx(a.Sort, a.Idx, off, "instantiate argument "+a.Name); err != nil {
				return err
			}
		}
	case *ast.InstanceExports:
		set := nameSet{}
		for _, ex := range d.Exports {
			n, err := checkExternName(set, "instance export", ex.Name, ex.Attrs, off)
			if err != nil {
				return err
			}
			// A bag of exports names no resource, so no function in it can
			// be a resource's constructor, method or static function (the
			// reference validator says the same of every such name).
			if n.annotation != "" {
				return Invalid(ruleAnnotation, off, "instance export %q: a bag of exports names no resource, so [%s] names are not valid in it", ex.Name, n.annotation)
			}
			if err := implementsOnInstance(ex.Attrs, sortKinds[ex.Sort], "instance export", ex.Name, off); err != nil {
				return err
			}
			if err := s.idx(ex.Sort, ex.Idx, off, "instance export "+ex.Name); err != nil {
				return err
			}
		}
	case *ast.Alias:
		t, err := s.alias(d)
		if err != nil {
			return err
		}
		s.push(d.Sort, t)
		return nil
	case *ast.Type:
		t, err := s.typeDef(d.Type, off)
		if err != nil {
			return err
		}
		s.push(ast.SortType, t)
		return nil
	case *ast.Canon:
		if err := s.canon(d); err != nil {
			return err
		}
	case *ast.Start:
		return s.idx(ast.SortFunc, d.FuncIdx, off, "start")
	case *ast.Import:
		t, err := s.importDecl(d.Name, d.Attrs, d.Desc, off)
		if err != nil {
			return err
		}
		s.push(d.Desc.Sort(), t)
		return nil
	case *ast.Export:
		t, err := s.export(d)
		if err != nil {
			return err
		}
		s.push(d.Sort, t)
		return nil
	}
	if sort, ok := ast.DefSort(d); ok {
		s.push(sort, vtype{})
	}
	return nil
}

// alias checks an alias (definition or declarator) and returns what it
// introduces.
func (s *vscope) alias(d *ast.Alias) (vtype, error) {
	switch d.Kind {
	case ast.AliasInstanceExport:
		return vtype{}, s.idx(ast.SortInstance, d.InstanceIdx, d.Offset, "alias export "+d.Name)
	case ast.AliasCoreInstanceExport:
		return vtype{}, s.idx(ast.SortCoreInstance, d.InstanceIdx, d.Offset, "alias core export "+d.Name)
	case ast.AliasOuter:
		o, crosses := s, false
		var passed []*vscope
		for range d.Count {
			if o.outer == nil {
				return vtype{}, Invalid(ruleOuterCount, d.Offset, "outer alias: count %d reaches past the outermost component", d.Count)
			}
			crosses = crosses || !o.isType
			passed = append(passed, o)
			o = o.outer
		}
		if err := o.idx(d.Sort, d.Idx, d.Offset, "outer alias"); err != nil {
			return vtype{}, err
		}
		if d.Sort == ast.SortCoreType {
			return vtype{kind: o.core[d.Idx]}, nil
		}
		if d.Sort != ast.SortType {
			return vtype{}, nil
		}
		t := o.types[d.Idx]
		if crosses && t.res {
			return t, Invalid(ruleOuterResource, d.Offset, "outer alias of type %d, which transitively refers to resources, into a nested component (resources cannot be aliased across a component boundary)", d.Idx)
		}
		for _, p := range passed {
			p.outerRes = p.outerRes || t.res
		}
		return t, nil
	}
	return vtype{}, Invalid(ruleIndex, d.Offset, "unknown alias kind %d", d.Kind)
}
