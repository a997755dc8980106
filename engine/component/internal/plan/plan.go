// Package plan is the component engine's elaboration: it flattens a
// decoded component into a Plan, inlining every nested instantiation and
// rewriting the core modules' imports to name their providers, and it
// runs the validation that needs resolved types (during elaboration) and
// compiled core modules (ValidateCompiled, after). See RATIONALE.md,
// "Compile once into a flat plan" and "Validation".
package plan

import (
	"fmt"

	"github.com/tetratelabs/wazero"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/wit"
)

// A Plan is a component flattened at compile time: every nested component
// instantiation is inlined, every alias resolved, so instantiating is a
// straight walk over steps with no lookups by name. Only the root's imports
// stay open; the linker fills them per store.
type Plan struct {
	// CoreInsts are the core module instances, in instantiation order.
	CoreInsts []*CoreInst
	// Steps run in order at instantiation.
	Steps []Step
	// HostFuncs are the core functions the host implements: lowered
	// component functions and resource built-ins. Core index i is exported
	// by the per-store host module as HostFuncName(i).
	HostFuncs []*HostFunc
	// Funcs are all component-level functions, by Func.ID.
	Funcs []*Func
	// CompInsts counts component instances (root is 0); each has its own
	// resource handle table.
	CompInsts int
	// Resources are the resource types defined inside the component.
	Resources map[*wit.ResourceType]*ResourceDef
	// Imports are the root's imports, in order.
	Imports []Import
	// ImportedResources are the abstract resource types of the root's
	// imports, bound to host types by the linker.
	ImportedResources []ImportedResource
	// Exports are the root's exports, in order.
	Exports []NamedItem
	// MinMemory is the initial size in bytes of all memories together.
	MinMemory uint64
	// MinTable is the initial size of the largest table; GrowsTables says
	// some module has table.grow. Without it the table cap is a check of
	// MinTable, and one compiled form serves every cap (the component's
	// forms.go).
	MinTable    uint64
	GrowsTables bool
	// coreChecks are the requirements on core items checked once the core
	// modules are compiled (coretypes.go).
	coreChecks []coreCheck
}

// StepKind is what a Step does.
type StepKind uint8

const (
	StepCoreInstance StepKind = iota + 1
	StepStart
)

// Step is one step of instantiation: a core instance made, or a component
// start function run.
type Step struct {
	Kind StepKind
	Core int   // StepCoreInstance: index into CoreInsts
	Func *Func // StepStart
}

// CoreInst instantiates one core module whose imports were renamed to
// point straight at their providers (see coremod.RewriteImports).
type CoreInst struct {
	// Source is the module it instantiates, before any rewriting; it is
	// dropped once compiled, with the component binary it points into.
	Source *ast.CoreModule
	// offset is that of the instantiating definition, for errors.
	offset int
	// Bytes is the rewritten module; kept after compiling only when a
	// table cap must be compiled in (Plan.GrowsTables).
	Bytes []byte
	// Digest is the SHA-256 of Bytes (rewritten.digest).
	Digest [32]byte
	// Shared says Bytes are the Memo's and never written to, so the
	// compiled module refers into them instead of copying its function
	// bodies and data segments (experimental.WithImmutableBinary).
	Shared bool
	// Compiled is Bytes compiled (CompileModules).
	Compiled wazero.CompiledModule
	// minMemory is the initial size in bytes of the memories it defines.
	minMemory uint64
	// Interruptible: the module has loops and exports the interrupt flag
	// (coremod.AddInterruptChecks).
	Interruptible bool
	// State is what a snapshot of an instance reads (Preinit).
	State coremod.State
}

// CoreItem names a core function, table, memory or global: export Name of
// runtime core instance Inst, or, when Inst is HostInst, host function
// Host.
type CoreItem struct {
	Inst int
	Name string
	Host int
}

// HostInst is the Inst of a CoreItem the host implements.
const HostInst = -1

// CanonOpts are canonical options with their core items resolved.
type CanonOpts struct {
	Encoding   canon.StringEncoding
	Memory     *CoreItem
	Realloc    *CoreItem
	PostReturn *CoreItem
}

// Func is a component-level function: lifted from a core function, or
// imported by the root.
type Func struct {
	ID   int
	Type *wit.Func
	ABI  *canon.Func

	// Lifted functions.
	Core     CoreItem
	Opts     CanonOpts
	CompInst int

	// Imported functions: instance "" for a root-level func import.
	// Implements is the interface the instance import declares it
	// implements (its implements attribute), which the linker falls back
	// to when the host defines nothing under the import's own name.
	Imported   bool
	Instance   string
	Name       string
	Implements string
}

func (f *Func) String() string {
	if f.Imported && f.Instance != "" {
		return f.Instance + "#" + f.Name
	}
	return f.Name
}

// HostFuncKind is what a HostFunc implements.
type HostFuncKind uint8

const (
	HostLower HostFuncKind = iota + 1
	HostResourceNew
	HostResourceDrop
	HostResourceRep
)

// HostFunc is a core function the host implements for component instance
// CompInst: a lowered component function or a resource built-in.
type HostFunc struct {
	Kind     HostFuncKind
	CompInst int
	// HostLower.
	Target *Func
	Opts   CanonOpts
	// resource built-ins.
	Resource *wit.ResourceType
}

// ResourceDef is a resource type defined by a component instance.
type ResourceDef struct {
	CompInst int
	Dtor     *CoreItem
}

// Import is one of the root's imports.
type Import struct {
	Name string
	Item Item
}

// ImportedResource is an abstract resource type the root imports, which
// the linker binds to the host's type of that name.
type ImportedResource struct {
	Instance, Name string
	Implements     string // as Func.Implements
	Type           *wit.ResourceType
}

// NamedItem is one of the root's exports.
type NamedItem struct {
	Name string
	Item Item
}

// Snapshottable reports why the plan cannot be snapshotted at all, or "".
func (p *Plan) Snapshottable() string {
	for i, ci := range p.CoreInsts {
		if ci.State.Unsafe != "" {
			return fmt.Sprintf("core instance %d: %s", i, ci.State.Unsafe)
		}
	}
	return ""
}
