package component

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/plan"
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
	if err := validate.CoreModule(m); err != nil {
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
	for _, imp := range c.plan.Imports {
		if imp.Item.Sort != ast.SortCoreModule {
			continue
		}
		m := l.modules[imp.Name]
		if m == nil {
			l.mu.Unlock()
			return nil, &LinkError{Name: imp.Name, Msg: "component imports this core module, but the host does not provide it (Linker.DefineModule)"}
		}
		supplied[imp.Name] = m
		mods = append(mods, m)
		sum := sha256.Sum256(m.Bytes)
		fmt.Fprintf(&key, "%q=%x;", imp.Name, sum)
	}
	l.mu.Unlock()

	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.withModules[key.String()]; ok {
		return d, nil
	}
	p, err := plan.ElaborateWith(c.tree, supplied, nil, c.engine.rewrites)
	if err != nil {
		return nil, fmt.Errorf("linking the host's core modules: %w", public(err))
	}
	e := c.engine
	cctx := experimental.WithCompilationWorkers(ctx, e.workers)
	if err := p.CompileModules(cctx, e.rt); err != nil {
		return nil, fmt.Errorf("linking the host's core modules: %w", err)
	}
	if err := p.ValidateCompiled(cctx, e.rt, mods); err != nil {
		p.CloseModules(ctx)
		return nil, fmt.Errorf("linking the host's core modules: %w", public(err))
	}
	host, err := compileHostModule(cctx, e.rt, p)
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
