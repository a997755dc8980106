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

// CoreMemories refuses modules with more than one memory: wazero has
// no multi-memory, and failing here says so instead of a compile error.
func CoreMemories(m *ast.CoreModule) error {
	n, err := coremod.MemoryCount(m.Bytes)
	if err != nil {
		return Invalid(RuleCoreModule, m.Offset, "core module: %v", err)
	}
	if n > 1 {
		return &binary.NotSupportedError{Feature: fmt.Sprintf("multi-memory (a core module with %d memories)", n), Offset: m.Offset}
	}
	return nil
}
