package plan

import (
	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/wit"
)

// World describes the plan's root imports and exports as WIT.
func (p *Plan) World() *wit.World {
	w := &wit.World{}
	for _, imp := range p.Imports {
		w.Imports = append(w.Imports, extern(imp.Name, imp.Item))
	}
	for _, ex := range p.Exports {
		w.Exports = append(w.Exports, extern(ex.Name, ex.Item))
	}
	return w
}

func extern(name string, it Item) wit.Extern {
	e := wit.Extern{Name: name}
	switch it.Sort {
	case ast.SortFunc:
		e.Kind, e.Func = wit.ExternFunc, it.Func.Type
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
		for _, n := range it.Inst.Names {
			e.Exports = append(e.Exports, extern(n, it.Inst.Exports[n]))
		}
	case ast.SortComponent:
		e.Kind = wit.ExternComponent
	case ast.SortCoreModule:
		e.Kind = wit.ExternModule
	}
	return e
}
