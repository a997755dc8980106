package plan

import "github.com/mur-go/mur/engine/component/internal/ast"

// Item is an entry of a component-level index space during elaboration.
// Exactly one field matching Sort is set.
type Item struct {
	Sort ast.Sort
	Func *Func
	typ  typeItem
	Inst *InstanceVal
	comp *componentDef
	mod  *ast.CoreModule
}

// typeItem is a resolved type: a wit.Type (value types), *wit.Func,
// *wit.ResourceType, *instanceType or *componentType.
type typeItem any

// InstanceVal is a component instance known at compile time: the exports
// of an inlined instantiation, of an inline export list, or of a root import.
type InstanceVal struct {
	Names   []string
	Exports map[string]Item
}

func newInstanceVal() *InstanceVal { return &InstanceVal{Exports: map[string]Item{}} }

func (v *InstanceVal) add(name string, it Item) {
	if _, dup := v.Exports[name]; !dup {
		v.Names = append(v.Names, name)
	}
	v.Exports[name] = it
}

// componentDef is a nested component not yet instantiated, closed over the
// scope it was defined in (for outer aliases).
type componentDef struct {
	ast   *ast.Component
	outer *scope
	// instantiated and checked record whether elaboration inlined it or
	// validated it on its own (see checkUninstantiated).
	instantiated, checked bool
	// abstract is the type of an imported component, which a check-only
	// elaboration instantiates by its type (abstract.go); ast is nil.
	abstract *componentType
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
	bag map[string]CoreItem
}

func (ci coreInstance) export(name string) (CoreItem, bool) {
	if ci.bag != nil {
		it, ok := ci.bag[name]
		return it, ok
	}
	return CoreItem{Inst: ci.rt, Name: name}, true
}
