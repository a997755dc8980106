package component

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

// compileUnused validates, by compiling them, the core modules the plan
// never instantiates (the instantiated ones were compiled with the plan).
func compileUnused(ctx context.Context, rt wazero.Runtime, mods []*ast.CoreModule, p *plan) error {
	used := map[*ast.CoreModule]bool{}
	for _, ci := range p.coreInsts {
		used[ci.source] = true
	}
	seen := map[string]bool{}
	for _, m := range mods {
		if used[m] || seen[string(m.Bytes)] {
			continue
		}
		seen[string(m.Bytes)] = true
		cm, err := rt.CompileModule(ctx, m.Bytes)
		if err != nil {
			return validate.Invalid(validate.RuleCoreModule, m.Offset, "core module (never instantiated) is invalid: %v", err)
		}
		if err := cm.Close(ctx); err != nil {
			return fmt.Errorf("releasing a validated core module: %w", err)
		}
	}
	return nil
}

// validateCompiled runs the validation that needs the plan's core modules
// compiled.
func (p *plan) validateCompiled(ctx context.Context, rt wazero.Runtime, mods []*ast.CoreModule) error {
	if err := compileUnused(ctx, rt, mods, p); err != nil {
		return err
	}
	return p.checkCoreTypes()
}

// closeModules releases the plan's compiled core modules when the
// component is refused, so a long-lived engine fed hostile components does
// not keep their code.
func (p *plan) closeModules(ctx context.Context) {
	closed := map[wazero.CompiledModule]bool{}
	for _, ci := range p.coreInsts {
		if ci.compiled != nil && !closed[ci.compiled] {
			closed[ci.compiled] = true
			_ = ci.compiled.Close(ctx) // wazero's Close cannot fail
		}
	}
}
