package tools

import (
	"context"
	"errors"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

// WasmToolConfig describes one WASM tool or driver.
type WasmToolConfig struct {
	// Name is the tool's name as the capsule manifest declares it; every
	// error names it.
	Name string
	// Component is the compiled tool.
	Component *component.Component
	// Linker is shared by all tools; see host.NewToolLinker.
	Linker *component.Linker
	// Grants are the tool's own WASI grants (env.allow set plus runtime
	// vars, its preopen, its network rules clamped to the ceiling). Each
	// call gets a fresh wasip2.Ctx built from them.
	Grants wasip2.Grants
	// Limits apply to every call: instantiation and run each get the full
	// deadline, as Murmur resets the budget before run.
	Limits component.Limits
	// NormalInit makes every call run the component's initialisation
	// instead of starting from a snapshot of it (component.Preinit), for
	// comparisons.
	NormalInit bool
}

// WasmTool calls a tool component, a fresh store per call so no state
// leaks from one call (or one caller) to the next.
type WasmTool struct {
	cfg      WasmToolConfig
	contract ToolContract
	// bindErr is the missing-export or type-check failure every call
	// reports; Murmur reports it per call too, not at staging.
	bindErr error
	// preinit lets each call's fresh store start from a snapshot of the
	// component's initialisation under these grants (wasmpreinit.go).
	preinit *component.Preinit
	// run is the typed run call, compiled once for all calls (nil when
	// bindErr is set).
	run runner
}

// NewWasmTool resolves the tool's run export. A component exporting no
// murmur:tool/run version mur-go binds is not an error here: its calls
// fail with Murmur's "missing export" text, as they do in Murmur.
func NewWasmTool(cfg WasmToolConfig) (*WasmTool, error) {
	if cfg.Name == "" || cfg.Component == nil || cfg.Linker == nil {
		return nil, errors.New("tools.NewWasmTool: name, component and linker are required")
	}
	t := &WasmTool{cfg: cfg}
	if !cfg.NormalInit {
		t.preinit = preinitFor(cfg.Grants)
	}
	t.contract, t.bindErr = resolveToolExport(cfg.Name, cfg.Component.World(), NewContractTypes())
	if t.bindErr == nil {
		var err error
		if t.run, err = newRunner(cfg.Component, t.contract); err != nil {
			// The export has the contract's WIT type, so its Go structs
			// fit: this is a bug in mur, reported on every call.
			t.bindErr = errTypeCheck(cfg.Name, err)
		}
	}
	return t, nil
}

// Contract is the murmur:tool/run version the tool is bound by.
func (t *WasmTool) Contract() ToolContract { return t.contract }

// resolveToolExport finds the run export by exact versioned instance name:
// 0.2.0 if the component exports it, else 0.1.0. Nothing else is tried (no
// unversioned name, no other version; wit.md §2.1). The missing-export text
// names the instance found, or Murmur's 0.1.0 when there is none.
func resolveToolExport(name string, w *wit.World, types *ContractTypes) (ToolContract, error) {
	for _, c := range []ToolContract{ToolRun020, ToolRun010} {
		inst := findExtern(w.Exports, string(c), wit.ExternInstance)
		if inst == nil {
			continue
		}
		run := findExtern(inst.Exports, "run", wit.ExternFunc)
		if run == nil {
			return c, errMissingExport(name, c)
		}
		if err := funcEqual(run.Func, types.RunFunc(c)); err != nil {
			return c, errTypeCheck(name, err)
		}
		return c, nil
	}
	return defaultToolExport, errMissingExport(name, defaultToolExport)
}

func findExtern(items []wit.Extern, name string, kind wit.ExternKind) *wit.Extern {
	for i := range items {
		if items[i].Name == name && items[i].Kind == kind {
			return &items[i]
		}
	}
	return nil
}

// Invoke implements Tool. The call's TaskIO comes from ctx (WithTaskIO).
func (t *WasmTool) Invoke(ctx context.Context, in ToolInput) (ToolResult, error) {
	if t.bindErr != nil {
		return ToolResult{}, t.bindErr
	}
	name, limits := t.cfg.Name, t.cfg.Limits
	wctx, err := wasip2.NewCtx(t.cfg.Grants)
	if err != nil {
		return ToolResult{}, errInstantiate(name, err)
	}
	defer wctx.Close()
	store := &component.Store{Limits: limits, Data: &ToolStore{WASI: wctx, IO: TaskIOFrom(ctx)}, Preinit: t.preinit}
	inst, err := t.cfg.Linker.Instantiate(ctx, t.cfg.Component, store)
	if err != nil {
		return ToolResult{}, classifyWasm(name, limits, err, true)
	}
	defer inst.Close(context.WithoutCancel(ctx))
	r, err := t.run.run(ctx, inst, in)
	if err != nil {
		// The instance lacks the export itself (TypedExport.Call's lookup,
		// unwrapped); a link error inside a trap is the trap's.
		if _, ok := err.(*component.LinkError); ok {
			return ToolResult{}, errMissingExport(name, t.contract)
		}
		return ToolResult{}, classifyWasm(name, limits, err, false)
	}
	return r, nil
}
