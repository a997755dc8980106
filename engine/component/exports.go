package component

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// lookupExport finds an exported function by "instance#func" or "func".
func (p *plan) lookupExport(export string) (item, error) {
	instName, fnName, nested := strings.Cut(export, "#")
	find := func(items []namedItem, name string) (item, bool) {
		for _, ni := range items {
			if ni.name == name {
				return ni.item, true
			}
		}
		return item{}, false
	}
	if !nested {
		it, ok := find(p.exports, export)
		if !ok || it.sort != ast.SortFunc {
			return item{}, &LinkError{Name: export, Msg: "component has no exported function " + export + p.exportHint()}
		}
		return it, nil
	}
	inst, ok := find(p.exports, instName)
	if !ok || inst.sort != ast.SortInstance {
		return item{}, &LinkError{Name: export, Msg: "component does not export instance " + instName + p.exportHint()}
	}
	it, ok := inst.inst.exports[fnName]
	if !ok || it.sort != ast.SortFunc {
		return item{}, &LinkError{Name: export, Msg: fmt.Sprintf("missing export %s: instance %s has no function %q (it exports %s)",
			export, instName, fnName, strings.Join(funcNames(inst.inst), ", "))}
	}
	return it, nil
}

func (p *plan) exportHint() string {
	var names []string
	for _, ni := range p.exports {
		if ni.item.sort == ast.SortFunc || ni.item.sort == ast.SortInstance {
			names = append(names, ni.name)
		}
	}
	if len(names) == 0 {
		return " (it exports no functions or instances)"
	}
	return " (it exports " + strings.Join(names, ", ") + ")"
}

func funcNames(v *instanceVal) []string {
	var names []string
	for _, n := range v.names {
		if v.exports[n].sort == ast.SortFunc {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return []string{"no functions"}
	}
	return names
}
