package component

import (
	"context"
	"sync"

	"github.com/mur-go/mur/engine/component/internal/plan"
)

// TypedExport is Typed for an export of a component rather than of one
// instance: checked and compiled once by NewTypedExport, then called on
// any instance of the component. An embedder that runs every call in a
// fresh store (a tool) thus compiles no codec per call. It is safe for
// concurrent use; each call is bound to its instance's store as Typed's.
type TypedExport[P, R any] struct {
	export string
	// first is compiled for the component's own definition of the export.
	first *typedCodec[P, R]
	// A component importing core modules elaborates into one definition
	// per set of modules the host supplies (hostmodules.go): their codecs
	// are compiled on first use.
	mu     sync.Mutex
	others map[*plan.Func]*typedCodec[P, R]
}

// NewTypedExport checks the WIT type of c's exported function export
// ("instance#func" or a root-level "func", as Instance.Func) against P and
// R as TypedFunc does, and compiles the codecs.
func NewTypedExport[P, R any](c *Component, export string) (*TypedExport[P, R], error) {
	it, err := lookupExport(c.plan, export)
	if err != nil {
		return nil, err
	}
	first, err := newTypedCodec[P, R](it.Func, export)
	if err != nil {
		return nil, err
	}
	return &TypedExport[P, R]{export: export, first: first}, nil
}

// Call calls the export on inst, an instance of the component e was made
// for, as Typed.Call. An instance of a component without the export (not
// e's) fails with the *LinkError of Instance.Func, unwrapped, before
// anything runs.
func (e *TypedExport[P, R]) Call(ctx context.Context, inst *Instance, p P) (R, error) {
	it, err := lookupExport(inst.s.comp.plan, e.export)
	if err != nil {
		var zero R
		return zero, err
	}
	c, err := e.codec(it.Func)
	if err != nil {
		var zero R
		return zero, err
	}
	f := &Func{s: inst.s, def: it.Func, name: e.export}
	return c.call(ctx, f, &p)
}

// codec returns the codec compiled for def.
func (e *TypedExport[P, R]) codec(def *plan.Func) (*typedCodec[P, R], error) {
	if def == e.first.def {
		return e.first, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c := e.others[def]; c != nil {
		return c, nil
	}
	c, err := newTypedCodec[P, R](def, e.export)
	if err != nil {
		return nil, err
	}
	if e.others == nil {
		e.others = map[*plan.Func]*typedCodec[P, R]{}
	}
	e.others[def] = c
	return c, nil
}
