package component

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/plan"
)

// compiled makes the Component of a plan whose core modules and host
// module are compiled. What compiling needed and instantiating does not is
// let go here: the component binary the plan's sources point into and,
// when no table cap must be compiled in, the rewritten modules (wazero
// keeps its own decoded copy of what instantiation reads, or refers into
// the memo's mapping of them: plan.CoreInst.Shared).
func compiled(e *Engine, p *plan.Plan, host wazero.CompiledModule) *Component {
	c := &Component{engine: e, plan: p, host: host, forms: map[uint32][]wazero.CompiledModule{}}
	base := make([]wazero.CompiledModule, len(p.CoreInsts))
	for i, ci := range p.CoreInsts {
		base[i] = ci.Compiled
		ci.Source = nil
		if !p.GrowsTables {
			ci.Bytes = nil
		}
	}
	c.forms[0] = base
	return c
}

// modules returns the compiled core modules for a store whose tables may
// hold at most maxElems elements (0: no cap). Fresh and restored stores
// instantiate the same modules: start functions are exports the engine
// calls (coremod.ExportStart).
//
// wazero has no hook for table growth. When no module has table.grow, the
// tables keep their initial sizes, so the cap is checked against those and
// the one form compiled at Compile serves every cap. Otherwise the cap is
// compiled into the modules' table types, once per distinct cap (then from
// the compilation cache), and the uncapped form is closed unless a store
// without a cap uses it.
func (c *Component) modules(ctx context.Context, maxElems uint32) ([]wazero.CompiledModule, error) {
	p := c.plan
	if maxElems > 0 && p.MinTable > uint64(maxElems) {
		return nil, &LimitError{Limit: LimitTableElements, Desired: p.MinTable, Max: uint64(maxElems)}
	}
	if !p.GrowsTables {
		maxElems = 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if maxElems == 0 {
		c.uncappedUsed = true
	}
	if mods, ok := c.forms[maxElems]; ok {
		return mods, nil
	}
	mods, err := c.compileForm(ctx, maxElems)
	if err != nil {
		return nil, err
	}
	c.forms[maxElems] = mods
	if base, ok := c.forms[0]; ok && !c.uncappedUsed {
		keep := map[wazero.CompiledModule]bool{}
		for _, m := range mods {
			keep[m] = true
		}
		closeUnkept(ctx, base, keep)
		delete(c.forms, 0)
	}
	return mods, nil
}

// compileForm compiles the plan's modules with their tables capped at
// maxElems (0: as they are), reusing the uncapped module where the cap
// changes nothing.
func (c *Component) compileForm(ctx context.Context, maxElems uint32) ([]wazero.CompiledModule, error) {
	cctx := experimental.WithCompilationWorkers(ctx, c.engine.workers)
	base := c.forms[0]
	mods := make([]wazero.CompiledModule, len(c.plan.CoreInsts))
	made := map[wazero.CompiledModule]bool{}
	seen := map[string]wazero.CompiledModule{}
	for i, ci := range c.plan.CoreInsts {
		b := ci.Bytes
		if maxElems > 0 {
			var err error
			if b, err = coremod.CapTables(ci.Bytes, maxElems); err != nil {
				closeMade(ctx, made)
				var tooLarge *coremod.TableTooLargeError
				if errors.As(err, &tooLarge) {
					return nil, &LimitError{Limit: LimitTableElements, Desired: tooLarge.Min, Max: uint64(maxElems)}
				}
				return nil, err
			}
		}
		if base != nil && bytes.Equal(b, ci.Bytes) {
			mods[i] = base[i]
			continue
		}
		if m, ok := seen[string(b)]; ok {
			mods[i] = m
			continue
		}
		m, err := c.engine.rt.CompileModule(cctx, b)
		if err != nil {
			closeMade(ctx, made)
			return nil, fmt.Errorf("compiling core instance %d with tables capped at %d: %w", i, maxElems, err)
		}
		mods[i], seen[string(b)], made[m] = m, m, true
	}
	return mods, nil
}

// closeUnkept closes the modules of mods not in keep, each once.
func closeUnkept(ctx context.Context, mods []wazero.CompiledModule, keep map[wazero.CompiledModule]bool) {
	closed := map[wazero.CompiledModule]bool{}
	for _, m := range mods {
		if m != nil && !keep[m] && !closed[m] {
			closed[m] = true
			_ = m.Close(ctx) // wazero's Close cannot fail
		}
	}
}

func closeMade(ctx context.Context, made map[wazero.CompiledModule]bool) {
	for m := range made {
		_ = m.Close(ctx) // wazero's Close cannot fail
	}
}
