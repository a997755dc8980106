package component

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/plan"
)

// lookupExport finds an exported function by "instance#func" or "func".
func lookupExport(p *plan.Plan, export string) (plan.Item, error) {
	instName, fnName, nested := strings.Cut(export, "#")
	find := func(items []plan.NamedItem, name string) (plan.Item, bool) {
		for _, ni := range items {
			if ni.Name == name {
				return ni.Item, true
			}
		}
		return plan.Item{}, false
	}
	if !nested {
		it, ok := find(p.Exports, export)
		if !ok || it.Sort != ast.SortFunc {
			return plan.Item{}, &LinkError{Name: export, Msg: "component has no exported function " + export + exportHint(p)}
		}
		return it, nil
	}
	inst, ok := find(p.Exports, instName)
	if !ok || inst.Sort != ast.SortInstance {
		return plan.Item{}, &LinkError{Name: export, Msg: "component does not export instance " + instName + exportHint(p)}
	}
	it, ok := inst.Inst.Exports[fnName]
	if !ok || it.Sort != ast.SortFunc {
		return plan.Item{}, &LinkError{Name: export, Msg: fmt.Sprintf("missing export %s: instance %s has no function %q (it exports %s)",
			export, instName, fnName, strings.Join(funcNames(inst.Inst), ", "))}
	}
	return it, nil
}

func exportHint(p *plan.Plan) string {
	var names []string
	for _, ni := range p.Exports {
		if ni.Item.Sort == ast.SortFunc || ni.Item.Sort == ast.SortInstance {
			names = append(names, ni.Name)
		}
	}
	if len(names) == 0 {
		return " (it exports no functions or instances)"
	}
	return " (it exports " + strings.Join(names, ", ") + ")"
}

func funcNames(v *plan.InstanceVal) []string {
	var names []string
	for _, n := range v.Names {
		if v.Exports[n].Sort == ast.SortFunc {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return []string{"no functions"}
	}
	return names
}
