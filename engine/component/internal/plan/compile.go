package plan

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

// CompileUnused validates, by compiling them, the core modules the plan
// never instantiates (the instantiated ones were compiled with the plan).
func CompileUnused(ctx context.Context, rt wazero.Runtime, mods []*ast.CoreModule, p *Plan) error {
	used := map[*ast.CoreModule]bool{}
	for _, ci := range p.CoreInsts {
		used[ci.Source] = true
	}
	seen := map[string]bool{}
	for _, m := range mods {
		if used[m] || seen[string(m.Bytes)] {
			continue
		}
		seen[string(m.Bytes)] = true
		// Import names are the instantiation's to give (an empty module
		// name is valid here but not to wazero): name each by its index.
		b, err := coremod.RewriteImports(m.Bytes, func(i int, _ coremod.Import) (string, string) { return "$unused", strconv.Itoa(i) })
		if err != nil {
			return validate.Invalid(validate.RuleCoreModule, m.Offset, "core module (never instantiated) is invalid: %v", err)
		}
		cm, err := rt.CompileModule(ctx, b)
		if err != nil {
			return validate.Invalid(validate.RuleCoreModule, m.Offset, "core module (never instantiated) is invalid: %v", err)
		}
		if err := cm.Close(ctx); err != nil {
			return fmt.Errorf("releasing a validated core module: %w", err)
		}
	}
	return nil
}

// ValidateCompiled runs the validation that needs the plan's core modules
// compiled.
func (p *Plan) ValidateCompiled(ctx context.Context, rt wazero.Runtime, mods []*ast.CoreModule) error {
	if err := CompileUnused(ctx, rt, mods, p); err != nil {
		return err
	}
	return p.checkCoreTypes()
}

// CloseModules releases the plan's compiled core modules when the
// component is refused, so a long-lived engine fed hostile components does
// not keep their code.
func (p *Plan) CloseModules(ctx context.Context) {
	closed := map[wazero.CompiledModule]bool{}
	for _, ci := range p.CoreInsts {
		if ci.Compiled != nil && !closed[ci.Compiled] {
			closed[ci.Compiled] = true
			_ = ci.Compiled.Close(ctx) // wazero's Close cannot fail
		}
	}
}

// CompileModules compiles every core module of the plan with wazero.
// Identical rewritten modules (a module instantiated twice with the same
// wiring) compile once.
func (p *Plan) CompileModules(ctx context.Context, rt wazero.Runtime) error {
	// Keyed by a hash of the bytes, compared in full on a match: a string
	// key would copy every module (MBs) to remember it.
	type compiled struct {
		bytes []byte
		m     wazero.CompiledModule
	}
	seed := maphash.MakeSeed()
	seen := map[uint64][]compiled{}
	for i, ci := range p.CoreInsts {
		h := maphash.Bytes(seed, ci.Bytes)
		if j := slices.IndexFunc(seen[h], func(c compiled) bool { return bytes.Equal(c.bytes, ci.Bytes) }); j >= 0 {
			ci.Compiled = seen[h][j].m
			continue
		}
		cctx := experimental.WithModuleDigest(ctx, ci.Digest)
		if ci.Shared {
			cctx = experimental.WithImmutableBinary(cctx)
		}
		m, err := rt.CompileModule(cctx, ci.Bytes)
		if err != nil {
			return fmt.Errorf("compiling core module of core instance %d: %w", i, err)
		}
		ci.Compiled = m
		seen[h] = append(seen[h], compiled{ci.Bytes, m})
	}
	return nil
}
