package component

import "github.com/mur-go/mur/engine/component/internal/ast"

// item is an entry of a component-level index space during elaboration.
// Exactly one field matching sort is set.
type item struct {
	sort ast.Sort
	fn   *funcDef
	typ  typeItem
	inst *instanceVal
	comp *componentDef
	mod  *ast.CoreModule
}

// typeItem is a resolved type: a wit.Type (value types), *wit.Func,
// *wit.ResourceType, *instanceType or *componentType.
type typeItem any

// instanceVal is a component instance known at compile time: the exports
// of an inlined instantiation, of an inline export list, or of a root import.
type instanceVal struct {
	names   []string
	exports map[string]item
}

func newInstanceVal() *instanceVal { return &instanceVal{exports: map[string]item{}} }

func (v *instanceVal) add(name string, it item) {
	if _, dup := v.exports[name]; !dup {
		v.names = append(v.names, name)
	}
	v.exports[name] = it
}

// componentDef is a nested component not yet instantiated, closed over the
// scope it was defined in (for outer aliases).
type componentDef struct {
	ast   *ast.Component
	outer *scope
	// instantiated and checked record whether elaboration inlined it or
	// validated it on its own (see checkUninstantiated).
	instantiated, checked bool
}

// instanceType is the type of a component instance: its exports in order.
type instanceType struct {
	exports []typedExport
}

// componentType is the type of a component.
type componentType struct {
	imports []typedExport
	exports []typedExport
}

// typedExport is a named entry of an instance or component type. desc is a
// *wit.Func (func), a typeItem (type) or *instanceType (instance).
type typedExport struct {
	name string
	sort ast.Sort
	desc any
	// fresh marks a type export bounded by (sub resource): a new abstract
	// resource type, as opposed to an alias (eq) of one defined elsewhere.
	fresh bool
}

// coreInstance is a core instance in scope: a runtime instance, or a bag of
// items built from an inline export list.
type coreInstance struct {
	rt  int
	bag map[string]coreItem
}

func (ci coreInstance) export(name string) (coreItem, bool) {
	if ci.bag != nil {
		it, ok := ci.bag[name]
		return it, ok
	}
	return coreItem{inst: ci.rt, name: name}, true
}
