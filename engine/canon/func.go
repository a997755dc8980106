package canon

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/wit"
)

// Flattening limits of the synchronous ABI.
const (
	MaxFlatParams  = 16
	MaxFlatResults = 1
)

// Signature is a core function type.
type Signature struct {
	Params, Results []api.ValueType
}

// Func is the canonical ABI of a (synchronous) component function type,
// computed once by NewFunc so that calls do no layout work. It is immutable
// and safe for concurrent use.
//
// The host calls a guest export (canon lift) with LowerArgs, then
// LiftResult; a guest calls a host import (canon lower) through LiftArgs,
// then LowerResult. Post-return is the caller's business.
type Func struct {
	// params are the parameters laid out as the tuple they are stored as
	// when they spill to memory.
	params     []field
	paramTypes []*Type
	argsSize   uint32
	argsAlign  uint32
	result     *Type

	spillParams  bool // more than MaxFlatParams flat params: pass a pointer
	spillResult  bool // more than MaxFlatResults flat results: via memory
	paramMemory  bool // parameters need memory
	resultMemory bool // the result needs memory

	lift, lower Signature
}

// NewFunc computes the canonical ABI of f (flatten_functype).
func NewFunc(f *wit.Func) (*Func, error) {
	fn := &Func{params: make([]field, len(f.Params)), paramTypes: make([]*Type, len(f.Params))}
	b := newBuilder()
	var flat []api.ValueType
	for i, p := range f.Params {
		t, err := b.build(p.Type)
		if err != nil {
			return nil, fmt.Errorf("%w (in parameter %q)", err, p.Name)
		}
		fn.params[i] = field{name: p.Name, t: t}
		fn.paramTypes[i] = t
		flat = append(flat, t.flat...)
		fn.paramMemory = fn.paramMemory || t.memory
	}
	size, align := layoutFields(fn.params)
	if size >= maxElemSize {
		return nil, fmt.Errorf("canon: parameters are too large")
	}
	fn.argsSize, fn.argsAlign = uint32(size), align
	if len(flat) > MaxFlatParams {
		fn.spillParams, fn.paramMemory = true, true
		flat = []api.ValueType{api.ValueTypeI32}
	}
	fn.lift.Params, fn.lower.Params = flat, flat
	if f.Result != nil {
		t, err := b.build(f.Result)
		if err != nil {
			return nil, fmt.Errorf("%w (in result)", err)
		}
		fn.result, fn.resultMemory = t, t.memory
		fn.lift.Results, fn.lower.Results = t.flat, t.flat
		if len(t.flat) > MaxFlatResults {
			fn.spillResult, fn.resultMemory = true, true
			fn.lift.Results = []api.ValueType{api.ValueTypeI32}
			fn.lower.Params = append(flat[:len(flat):len(flat)], api.ValueTypeI32)
			fn.lower.Results = nil
		}
	}
	return fn, nil
}

// Params returns the layouts of the parameters.
func (fn *Func) Params() []*Type { return fn.paramTypes }

// Result returns the layout of the result, or nil.
func (fn *Func) Result() *Type { return fn.result }

// LiftSignature is the core type of the guest function a canon lift wraps.
func (fn *Func) LiftSignature() Signature { return fn.lift }

// LowerSignature is the core type of the function a canon lower provides to
// the guest.
func (fn *Func) LowerSignature() Signature { return fn.lower }

// LowerArgs lowers the host's args for a call to the lifted guest function
// (lower_flat_values with MAX_FLAT_PARAMS): flat, or stored in memory
// allocated with realloc and passed by pointer. It returns stack, grown if
// needed, sliced to max(len(params), len(results)) of the lift signature
// with the core arguments first, ready for api.Function.CallWithStack.
func (fn *Func) LowerArgs(ctx context.Context, opts *Options, args []any, stack []uint64) ([]uint64, error) {
	if len(args) != len(fn.params) {
		return nil, &ValueError{Want: fmt.Sprintf("%d arguments", len(fn.params)), Got: fmt.Sprint(len(args))}
	}
	c, stack, ptr, err := fn.lowerArgsCall(ctx, opts, stack)
	if err != nil {
		return nil, err
	}
	if fn.spillParams {
		for i, p := range fn.params {
			if err := c.store(p.t, args[i], ptr+p.offset); err != nil {
				return nil, at(err, "param %q", p.name)
			}
		}
		stack[0] = uint64(ptr)
		return stack, nil
	}
	for i, p := range fn.params {
		if err := c.lowerFlat(p.t, args[i], stack[p.flat:p.flat+len(p.t.flat)]); err != nil {
			return nil, at(err, "param %q", p.name)
		}
	}
	return stack, nil
}

// lowerArgsCall starts lowering arguments for a call to the lifted guest
// function: it checks the memory option, sizes stack for CallWithStack
// and, when the arguments spill to memory, allocates their tuple and
// returns its address.
func (fn *Func) lowerArgsCall(ctx context.Context, opts *Options, stack []uint64) (c call, _ []uint64, ptr uint32, err error) {
	c = newCall(ctx, opts)
	if fn.paramMemory {
		if err := c.needMemory(); err != nil {
			return c, nil, 0, err
		}
	}
	n := max(len(fn.lift.Params), len(fn.lift.Results))
	if cap(stack) < n {
		stack = make([]uint64, n)
	}
	stack = stack[:n]
	if fn.spillParams {
		if ptr, err = c.realloc(0, 0, fn.argsAlign, fn.argsSize); err != nil {
			return c, nil, 0, err
		}
	}
	return c, stack, ptr, nil
}

// LiftResult lifts the result of the lifted guest function from its core
// results (lift_flat_values with MAX_FLAT_RESULTS): flat, or from the
// memory results[0] points at, which must be aligned and in bounds. It
// returns nil for a function without a result.
func (fn *Func) LiftResult(ctx context.Context, opts *Options, results []uint64) (any, error) {
	if fn.result == nil {
		return nil, nil
	}
	c, ptr, err := fn.liftResultCall(ctx, opts, results)
	if err != nil {
		return nil, err
	}
	if fn.spillResult {
		return c.load(fn.result, ptr)
	}
	return c.liftFlat(fn.result, results[:1])
}

// liftResultCall starts lifting a result from core results: it checks
// their count and the memory option and, for a result spilled to memory,
// returns the checked pointer to it.
func (fn *Func) liftResultCall(ctx context.Context, opts *Options, results []uint64) (c call, ptr uint32, err error) {
	if len(results) < len(fn.lift.Results) {
		return c, 0, fmt.Errorf("canon: %d core results, want %d", len(results), len(fn.lift.Results))
	}
	c = newCall(ctx, opts)
	if fn.resultMemory {
		if err := c.needMemory(); err != nil {
			return c, 0, err
		}
	}
	if fn.spillResult {
		ptr = uint32(results[0])
		if err := c.check(ptr, uint64(fn.result.size), fn.result.align, "result"); err != nil {
			return c, 0, err
		}
	}
	return c, ptr, nil
}

// LiftArgs lifts the arguments of a guest's call to the lowered host
// function from its core params (lift_flat_values with MAX_FLAT_PARAMS):
// flat, or from the memory params[0] points at, which must be aligned and
// in bounds. A trailing return pointer in params is ignored.
func (fn *Func) LiftArgs(ctx context.Context, opts *Options, params []uint64) ([]any, error) {
	if len(params) < len(fn.lift.Params) {
		return nil, fmt.Errorf("canon: %d core params, want %d", len(params), len(fn.lift.Params))
	}
	c := newCall(ctx, opts)
	if fn.paramMemory {
		if err := c.needMemory(); err != nil {
			return nil, err
		}
	}
	vs := make([]any, len(fn.params))
	if fn.spillParams {
		ptr := uint32(params[0])
		if err := c.check(ptr, uint64(fn.argsSize), fn.argsAlign, "parameters"); err != nil {
			return nil, err
		}
		for i, p := range fn.params {
			v, err := c.load(p.t, ptr+p.offset)
			if err != nil {
				return nil, err
			}
			vs[i] = v
		}
		return vs, nil
	}
	for i, p := range fn.params {
		v, err := c.liftFlat(p.t, params[p.flat:p.flat+len(p.t.flat)])
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

// LowerResult lowers the host's result v of a guest's call to the lowered
// host function (lower_flat_values with MAX_FLAT_RESULTS): into results[0],
// or into the memory the guest's return pointer, the last of params, points
// at, which must be aligned and in bounds. params and results may be the
// same slice (a wazero host function's stack): the pointer is read first.
func (fn *Func) LowerResult(ctx context.Context, opts *Options, v any, params, results []uint64) error {
	if fn.result == nil {
		if v != nil {
			return &ValueError{Path: []string{"result"}, Want: "no result", Got: fmt.Sprintf("%T", v)}
		}
		return nil
	}
	c, ptr, err := fn.lowerResultCall(ctx, opts, params, results)
	if err != nil {
		return err
	}
	if fn.spillResult {
		return at(c.store(fn.result, v, ptr), "result")
	}
	return at(c.lowerFlat(fn.result, v, results[:1]), "result")
}

// lowerResultCall starts lowering a result for a guest's call: it checks
// the memory option and, for a result spilled to memory, returns the
// checked return pointer (the last core param); otherwise it checks there
// is room for the flat result.
func (fn *Func) lowerResultCall(ctx context.Context, opts *Options, params, results []uint64) (c call, ptr uint32, err error) {
	c = newCall(ctx, opts)
	if fn.resultMemory {
		if err := c.needMemory(); err != nil {
			return c, 0, err
		}
	}
	if !fn.spillResult {
		if len(results) < 1 {
			return c, 0, fmt.Errorf("canon: no room for the core result")
		}
		return c, 0, nil
	}
	if len(params) < len(fn.lower.Params) {
		return c, 0, fmt.Errorf("canon: %d core params, want %d", len(params), len(fn.lower.Params))
	}
	ptr = uint32(params[len(fn.lower.Params)-1])
	if err := c.check(ptr, uint64(fn.result.size), fn.result.align, "return pointer"); err != nil {
		return c, 0, err
	}
	return c, ptr, nil
}
