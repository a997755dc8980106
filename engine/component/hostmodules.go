package component

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

// maxModuleSets bounds how many sets of host modules a component keeps
// compiled.
const maxModuleSets = 16

// DefineModule supplies the core module wasm for a component's root import
// name, (import "name" (core module ...)). The module is checked against
// the import's declared module type when a component is instantiated.
func (l *Linker) DefineModule(name string, wasm []byte) error {
	if !isCoreModule(wasm) {
		return fmt.Errorf("define core module %q: not a core wasm module", name)
	}
	m := &ast.CoreModule{Bytes: slices.Clone(wasm)}
	if err := validate.CoreMemories(m); err != nil {
		return fmt.Errorf("define core module %q: %w", name, public(err))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, dup := l.modules[name]; dup {
		return fmt.Errorf("define core module %q: already defined", name)
	}
	if l.modules == nil {
		l.modules = map[string]*ast.CoreModule{}
	}
	l.modules[name] = m
	return nil
}

// importsModules reports whether a component's root imports core modules.
func importsModules(c *ast.Component) bool {
	for _, d := range c.Defs {
		if imp, ok := d.(*ast.Import); ok && imp.Desc.Kind == ast.ExternCoreModule {
			return true
		}
	}
	return false
}

// moduleImport binds a root core-module import to the host's module,
// checked against the declared type, or, check-only, to an abstract one.
func (e *elaborator) moduleImport(s *scope, d *ast.Import) (item, error) {
	if e.modules == nil {
		return item{sort: ast.SortCoreModule, mod: &ast.CoreModule{Offset: d.Offset}}, nil
	}
	mod, ok := e.modules[d.Name]
	if !ok {
		return item{}, fmt.Errorf("the host supplies no core module for it")
	}
	if int(d.Desc.TypeIdx) < len(s.coreTypes) {
		if mt, ok := s.coreTypes[d.Desc.TypeIdx].(*ast.ModuleType); ok {
			if err := coreModuleFits(mod, mt); err != nil {
				return item{}, fmt.Errorf("the host's core module does not fit the declared module type: %w", err)
			}
		}
	}
	return item{sort: ast.SortCoreModule, mod: mod}, nil
}

// linkModules returns the component to instantiate with l: c itself, or,
// when c's root imports core modules, c elaborated and compiled with the
// modules l supplies, once per distinct set of modules.
func (c *Component) linkModules(ctx context.Context, l *Linker) (*Component, error) {
	if c.tree == nil {
		return c, nil
	}
	supplied := map[string]*ast.CoreModule{}
	var mods []*ast.CoreModule
	var key strings.Builder
	l.mu.Lock()
	for _, imp := range c.plan.imports {
		if imp.item.sort != ast.SortCoreModule {
			continue
		}
		m := l.modules[imp.name]
		if m == nil {
			l.mu.Unlock()
			return nil, &LinkError{Name: imp.name, Msg: "component imports this core module, but the host does not provide it (Linker.DefineModule)"}
		}
		supplied[imp.name] = m
		mods = append(mods, m)
		sum := sha256.Sum256(m.Bytes)
		fmt.Fprintf(&key, "%q=%x;", imp.name, sum)
	}
	l.mu.Unlock()

	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.withModules[key.String()]; ok {
		return d, nil
	}
	p, err := elaborate(c.tree, supplied)
	if err != nil {
		return nil, fmt.Errorf("linking the host's core modules: %w", public(err))
	}
	e := c.engine
	cctx := experimental.WithCompilationWorkers(ctx, e.workers)
	if err := p.compileModules(cctx, e.rt); err != nil {
		return nil, fmt.Errorf("linking the host's core modules: %w", err)
	}
	if err := p.validateCompiled(cctx, e.rt, mods); err != nil {
		p.closeModules(ctx)
		return nil, fmt.Errorf("linking the host's core modules: %w", public(err))
	}
	host, err := p.compileHostModule(cctx, e.rt)
	if err != nil {
		return nil, err
	}
	if len(c.withModules) >= maxModuleSets {
		clear(c.withModules)
	}
	d := compiled(e, p, host)
	c.withModules[key.String()] = d
	return d, nil
}
