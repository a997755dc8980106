package component

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/wit"
)

// world describes the plan's root imports and exports as WIT.
func (p *plan) world() *wit.World {
	w := &wit.World{}
	for _, imp := range p.imports {
		w.Imports = append(w.Imports, extern(imp.name, imp.item))
	}
	for _, ex := range p.exports {
		w.Exports = append(w.Exports, extern(ex.name, ex.item))
	}
	return w
}

func extern(name string, it item) wit.Extern {
	e := wit.Extern{Name: name}
	switch it.sort {
	case ast.SortFunc:
		e.Kind, e.Func = wit.ExternFunc, it.fn.typ
	case ast.SortType:
		switch t := it.typ.(type) {
		case *wit.ResourceType:
			e.Kind, e.Resource = wit.ExternResource, t
		case wit.Type:
			e.Kind, e.Type = wit.ExternType, t
		default:
			e.Kind = wit.ExternType
		}
	case ast.SortInstance:
		e.Kind = wit.ExternInstance
		for _, n := range it.inst.names {
			e.Exports = append(e.Exports, extern(n, it.inst.exports[n]))
		}
	case ast.SortComponent:
		e.Kind = wit.ExternComponent
	case ast.SortCoreModule:
		e.Kind = wit.ExternModule
	}
	return e
}
