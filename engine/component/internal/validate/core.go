package validate

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/engine/component/internal/coremod"
)

// RuleCoreModule: every embedded core module is a valid core module, even
// one that is never instantiated.
const RuleCoreModule = "core.module"

// CoreModule checks what the component model asks of a core module beyond
// core validation (wazero's, which sees the imports renamed): its
// two-level import names are unique, since instantiation resolves each by
// its pair of names. It also refuses modules with more than one memory:
// wazero has no multi-memory, and failing here says so instead of a
// compile error.
func CoreModule(m *ast.CoreModule) error {
	imps, err := coremod.Imports(m.Bytes)
	if err != nil {
		return Invalid(RuleCoreModule, m.Offset, "core module: %v", err)
	}
	seen := make(map[[2]string]bool, len(imps))
	for _, imp := range imps {
		k := [2]string{imp.Module, imp.Name}
		if seen[k] {
			return Invalid(ruleCoreNameDup, m.Offset, "core module: duplicate import name %q %q", imp.Module, imp.Name)
		}
		seen[k] = true
	}
	n, err := coremod.MemoryCount(m.Bytes)
	if err != nil {
		return Invalid(RuleCoreModule, m.Offset, "core module: %v", err)
	}
	if n > 1 {
		return &binary.NotSupportedError{Feature: fmt.Sprintf("multi-memory (a core module with %d memories)", n), Offset: m.Offset}
	}
	return nil
}
