package plan

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

// coreModuleFits checks a core module given as an instantiation argument
// against the module type its importer declares: the module may import
// only what the type declares, and must export everything the type does,
// by name and kind (Explainer.md, "Type checking": module subtyping).
// Function signatures are compared later, where the module is
// instantiated (checkCoreTypes).
func coreModuleFits(mod *ast.CoreModule, mt *ast.ModuleType) error {
	declImps := map[[2]string]ast.Sort{}
	for _, d := range mt.Decls {
		if d, ok := d.(*ast.CoreImport); ok {
			declImps[[2]string{d.Module, d.Name}] = d.Desc.Kind
		}
	}
	imps, err := coremod.Imports(mod.Bytes)
	if err != nil {
		return err
	}
	for _, imp := range imps {
		want, ok := declImps[[2]string{imp.Module, imp.Name}]
		if !ok {
			return fmt.Errorf("the module imports %q %q, which the declared module type does not", imp.Module, imp.Name)
		}
		if coreSortOf(imp.Kind) != want {
			return fmt.Errorf("the module imports %q %q as a %s, the declared module type as a %s", imp.Module, imp.Name, imp.Kind, want)
		}
	}
	exps, err := coremod.Exports(mod.Bytes)
	if err != nil {
		return err
	}
	have := make(map[string]ast.Sort, len(exps))
	for _, ex := range exps {
		have[ex.Name] = coreSortOf(ex.Kind)
	}
	for _, d := range mt.Decls {
		d, ok := d.(*ast.CoreExportDecl)
		if !ok {
			continue
		}
		got, ok := have[d.Name]
		if !ok {
			return fmt.Errorf("the declared module type exports %q, which the module does not", d.Name)
		}
		if got != d.Desc.Kind {
			return fmt.Errorf("the module exports %q as a %s, the declared module type as a %s", d.Name, got, d.Desc.Kind)
		}
	}
	return nil
}

// coreSortOf maps a core extern kind to its sort.
func coreSortOf(k coremod.Kind) ast.Sort {
	switch k {
	case coremod.KindFunc:
		return ast.SortCoreFunc
	case coremod.KindTable:
		return ast.SortCoreTable
	case coremod.KindMemory:
		return ast.SortCoreMemory
	case coremod.KindGlobal:
		return ast.SortCoreGlobal
	case coremod.KindTag:
		return ast.SortCoreTag
	}
	return 0
}

// checkModuleArg checks a core module passed to a nested component against
// the type of the import it satisfies.
func checkModuleArg(s *scope, d *ast.Import, it Item) error {
	if d.Desc.Kind != ast.ExternCoreModule || it.mod.Bytes == nil || int(d.Desc.TypeIdx) >= len(s.coreTypes) {
		return nil
	}
	mt, ok := s.coreTypes[d.Desc.TypeIdx].(*ast.ModuleType)
	if !ok {
		return nil
	}
	if err := coreModuleFits(it.mod, mt); err != nil {
		return validate.DefInvalid(d, validate.RuleArgType, "nested component import %q: %v", d.Name, err)
	}
	return nil
}

// ImportsModules reports whether a component's root imports core modules.
func ImportsModules(c *ast.Component) bool {
	for _, d := range c.Defs {
		if imp, ok := d.(*ast.Import); ok && imp.Desc.Kind == ast.ExternCoreModule {
			return true
		}
	}
	return false
}

// moduleImport binds a root core-module import to the host's module,
// checked against the declared type, or, check-only, to an abstract one.
func (e *elaborator) moduleImport(s *scope, d *ast.Import) (Item, error) {
	if e.modules == nil {
		return Item{Sort: ast.SortCoreModule, mod: &ast.CoreModule{Offset: d.Offset}}, nil
	}
	mod, ok := e.modules[d.Name]
	if !ok {
		return Item{}, fmt.Errorf("the host supplies no core module for it")
	}
	if int(d.Desc.TypeIdx) < len(s.coreTypes) {
		if mt, ok := s.coreTypes[d.Desc.TypeIdx].(*ast.ModuleType); ok {
			if err := coreModuleFits(mod, mt); err != nil {
				return Item{}, fmt.Errorf("the host's core module does not fit the declared module type: %w", err)
			}
		}
	}
	return Item{Sort: ast.SortCoreModule, mod: mod}, nil
}
