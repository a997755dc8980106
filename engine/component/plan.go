package component

import (
	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/wit"
	"github.com/tetratelabs/wazero"
)

// A plan is a component flattened at compile time: every nested component
// instantiation is inlined, every alias resolved, so instantiating is a
// straight walk over steps with no lookups by name. Only the root's imports
// stay open; the linker fills them per store.
type plan struct {
	// coreInsts are the core module instances, in instantiation order.
	coreInsts []*coreInstPlan
	// steps run in order at instantiation.
	steps []step
	// hostFuncs are the core functions the host implements: lowered
	// component functions and resource built-ins. Core index i is exported
	// by the per-store host module as hostFuncName(i).
	hostFuncs []*hostFuncPlan
	// funcs are all component-level functions, by funcDef.id.
	funcs []*funcDef
	// compInsts counts component instances (root is 0); each has its own
	// resource handle table.
	compInsts int
	// resources are the resource types defined inside the component.
	resources map[*wit.ResourceType]*resourceDef
	// imports are the root's imports, in order.
	imports []rootImport
	// importedResources are the abstract resource types of the root's
	// imports, bound to host types by the linker.
	importedResources []importedResource
	// exports are the root's exports, in order.
	exports []namedItem
	// minMemory is the initial size in bytes of all memories together.
	minMemory uint64
	// minTable is the initial size of the largest table; growsTables says
	// some module has table.grow. Without it the table cap is a check of
	// minTable, and one compiled form serves every cap (hostmodule.go).
	minTable    uint64
	growsTables bool
	// coreChecks are the requirements on core items checked once the core
	// modules are compiled (validate_coretypes.go).
	coreChecks []coreCheck
}

type stepKind uint8

const (
	stepCoreInstance stepKind = iota + 1
	stepStart
)

type step struct {
	kind stepKind
	core int      // stepCoreInstance: index into coreInsts
	fn   *funcDef // stepStart
}

// coreInstPlan instantiates one core module whose imports were renamed to
// point straight at their providers (see coremod.RewriteImports).
type coreInstPlan struct {
	// source is the module it instantiates, before any rewriting; it is
	// dropped once compiled, with the component binary it points into.
	source *ast.CoreModule
	// offset is that of the instantiating definition, for errors.
	offset int
	// bytes is the rewritten module; kept after compiling only when a
	// table cap must be compiled in (plan.growsTables).
	bytes    []byte
	compiled wazero.CompiledModule
	// minMemory is the initial size in bytes of the memories it defines.
	minMemory uint64
	// interruptible: the module has loops and exports the interrupt flag
	// (coremod.AddInterruptChecks).
	interruptible bool
	// state is what a snapshot of an instance reads (Preinit).
	state coremod.State
}

// coreItem names a core function, table, memory or global: export name of
// runtime core instance inst, or, when inst is hostInst, host function host.
type coreItem struct {
	inst int
	name string
	host int
}

const hostInst = -1

// canonOpts are canonical options with their core items resolved.
type canonOpts struct {
	encoding   canon.StringEncoding
	memory     *coreItem
	realloc    *coreItem
	postReturn *coreItem
}

// funcDef is a component-level function: lifted from a core function, or
// imported by the root.
type funcDef struct {
	id  int
	typ *wit.Func
	abi *canon.Func

	// Lifted functions.
	core     coreItem
	opts     canonOpts
	compInst int

	// Imported functions: instance "" for a root-level func import.
	imported bool
	instance string
	name     string
}

func (f *funcDef) String() string {
	if f.imported && f.instance != "" {
		return f.instance + "#" + f.name
	}
	return f.name
}

type hostFuncKind uint8

const (
	hostLower hostFuncKind = iota + 1
	hostResourceNew
	hostResourceDrop
	hostResourceRep
)

type hostFuncPlan struct {
	kind     hostFuncKind
	compInst int
	// hostLower.
	target *funcDef
	opts   canonOpts
	// resource built-ins.
	resource *wit.ResourceType
}

// resourceDef is a resource type defined by a component instance.
type resourceDef struct {
	compInst int
	dtor     *coreItem
}

type rootImport struct {
	name string
	item item
}

type importedResource struct {
	instance, name string
	typ            *wit.ResourceType
}

type namedItem struct {
	name string
	item item
}
