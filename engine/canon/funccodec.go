package canon

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
)

// FuncCodec is the typed path for calls of one component function type:
// Func's LowerArgs, LiftResult, LiftArgs and LowerResult with Go values
// instead of dynamic ones. Build it once with NewFuncCodec; it is safe for
// concurrent use. Besides its plans it keeps only how many string bytes
// the last lift of the arguments and of the result took, to size the next
// one's string arena (see call.stringBytes).
//
// The parameters travel as one Go value P: when the function has exactly
// one parameter, P is that parameter's Go type; otherwise P is a struct
// with one exported field per parameter, in order (struct{} for none). The
// result travels as its Go type R.
type FuncCodec struct {
	fn                  *Func
	params              []argPlan
	paramsType, paramsP reflect.Type
	result              *plan
	resultType, resultP reflect.Type
	// argsHint and resultHint are the string arena hints (stringHint) of
	// LiftArgs and LiftResult.
	argsHint, resultHint atomic.Int32
}

// argPlan is one parameter: its layout and where it sits in P.
type argPlan struct {
	f     *field
	goOff uintptr
	plan  *plan
}

// NewFuncCodec checks Go types params (P) and result (R) against fn (see
// FuncCodec) and compiles the codecs. result must be nil when fn has no
// result.
func NewFuncCodec(fn *Func, params, result reflect.Type) (*FuncCodec, error) {
	fc := &FuncCodec{fn: fn, params: make([]argPlan, len(fn.params))}
	if params == nil {
		if len(fn.params) != 0 {
			return nil, fmt.Errorf("canon: nil Go type for %d parameters", len(fn.params))
		}
		params = reflect.TypeFor[struct{}]()
	}
	fc.paramsType, fc.paramsP = params, reflect.PointerTo(params)
	if len(fn.params) == 1 {
		p := &fn.params[0]
		pl, err := compileRoot(p.t, params)
		if err != nil {
			return nil, fmt.Errorf("canon: parameter %q: WIT %s as Go %s: %w", p.name, TypeString(p.t.wit), params, err)
		}
		fc.params[0] = argPlan{f: p, plan: pl}
	} else {
		if params.Kind() != reflect.Struct || params.NumField() != len(fn.params) {
			return nil, fmt.Errorf("canon: Go %s cannot carry %d parameters (want a struct with one field per parameter)", params, len(fn.params))
		}
		for i := range fn.params {
			p, sf := &fn.params[i], params.Field(i)
			if !sf.IsExported() {
				return nil, fmt.Errorf("canon: parameter %q: Go field %s of %s is not exported", p.name, sf.Name, params)
			}
			pl, err := compileRoot(p.t, sf.Type)
			if err != nil {
				return nil, fmt.Errorf("canon: parameter %q (Go field %s of %s): WIT %s as Go %s: %w", p.name, sf.Name, params, TypeString(p.t.wit), sf.Type, err)
			}
			fc.params[i] = argPlan{f: p, goOff: sf.Offset, plan: pl}
		}
	}
	switch {
	case fn.result == nil && result != nil:
		return nil, fmt.Errorf("canon: Go result type %s for a function without result", result)
	case fn.result != nil && result == nil:
		return nil, fmt.Errorf("canon: nil Go result type for WIT result %s", TypeString(fn.result.wit))
	case fn.result != nil:
		pl, err := compileRoot(fn.result, result)
		if err != nil {
			return nil, fmt.Errorf("canon: result: WIT %s as Go %s: %w", TypeString(fn.result.wit), result, err)
		}
		fc.result, fc.resultType, fc.resultP = pl, result, reflect.PointerTo(result)
	}
	return fc, nil
}

// Func returns the function type the codec was compiled for.
func (fc *FuncCodec) Func() *Func { return fc.fn }

// LowerArgs is Func.LowerArgs with the arguments taken from args, a *P (or
// a P, which costs a copy).
func (fc *FuncCodec) LowerArgs(ctx context.Context, opts *Options, args any, stack []uint64) ([]uint64, error) {
	fn := fc.fn
	var src goRef
	if len(fc.params) > 0 {
		var err error
		if src, err = srcRef(args, fc.paramsType, fc.paramsP); err != nil {
			return nil, at(err, "arguments")
		}
	}
	c, stack, ptr, err := fn.lowerArgsCall(ctx, opts, stack)
	if err != nil {
		return nil, err
	}
	if fn.spillParams {
		for _, a := range fc.params {
			if err := c.storeGo(a.plan, src.field(a.goOff), ptr+a.f.offset); err != nil {
				return nil, at(err, "param %q", a.f.name)
			}
		}
		stack[0] = uint64(ptr)
		return stack, nil
	}
	for _, a := range fc.params {
		if err := c.lowerFlatGo(a.plan, src.field(a.goOff), stack[a.f.flat:a.f.flat+len(a.f.t.flat)]); err != nil {
			return nil, at(err, "param %q", a.f.name)
		}
	}
	return stack, nil
}

// LiftResult is Func.LiftResult with the result lifted into dst, a *R.
// For a function without result it does nothing.
func (fc *FuncCodec) LiftResult(ctx context.Context, opts *Options, results []uint64, dst any) error {
	fn := fc.fn
	if fn.result == nil {
		return nil
	}
	r, err := dstRef(dst, fc.resultP)
	if err != nil {
		return err
	}
	c, ptr, err := fn.liftResultCall(ctx, opts, results)
	if err != nil {
		return err
	}
	hint := fc.resultHint.Load()
	c.hint = int(hint)
	c.startLift(fc.result)
	if fn.spillResult {
		err = c.loadGo(fc.result, ptr, r)
	} else {
		err = c.liftFlatGo(fc.result, results[:1], r)
	}
	updateHint(&fc.resultHint, hint, &c)
	return err
}

// updateHint records the string bytes of lift c in h, which held old.
func updateHint(h *atomic.Int32, old int32, c *call) {
	if n := int32(stringHint(c.strBytes)); n != old {
		h.Store(n)
	}
}

// LiftArgs is Func.LiftArgs with the arguments lifted into dst, a *P.
func (fc *FuncCodec) LiftArgs(ctx context.Context, opts *Options, params []uint64, dst any) error {
	fn := fc.fn
	if len(params) < len(fn.lift.Params) {
		return fmt.Errorf("canon: %d core params, want %d", len(params), len(fn.lift.Params))
	}
	if len(fc.params) == 0 {
		return nil
	}
	r, err := dstRef(dst, fc.paramsP)
	if err != nil {
		return err
	}
	c := newCall(ctx, opts)
	if fn.paramMemory {
		if err := c.needMemory(); err != nil {
			return err
		}
	}
	hint := fc.argsHint.Load()
	c.hint = int(hint)
	err = fc.liftArgs(&c, params, r)
	updateHint(&fc.argsHint, hint, &c)
	return err
}

func (fc *FuncCodec) liftArgs(c *call, params []uint64, r goRef) error {
	fn := fc.fn
	if fn.spillParams {
		ptr := uint32(params[0])
		if err := c.check(ptr, uint64(fn.argsSize), fn.argsAlign, "parameters"); err != nil {
			return err
		}
		for _, a := range fc.params {
			c.startLift(a.plan)
			if err := c.loadGo(a.plan, ptr+a.f.offset, r.field(a.goOff)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, a := range fc.params {
		c.startLift(a.plan)
		if err := c.liftFlatGo(a.plan, params[a.f.flat:a.f.flat+len(a.f.t.flat)], r.field(a.goOff)); err != nil {
			return err
		}
	}
	return nil
}

// LowerResult is Func.LowerResult with the result taken from src, a *R
// (or an R, which costs a copy). For a function without result src is
// ignored.
func (fc *FuncCodec) LowerResult(ctx context.Context, opts *Options, src any, params, results []uint64) error {
	fn := fc.fn
	if fn.result == nil {
		return nil
	}
	r, err := srcRef(src, fc.resultType, fc.resultP)
	if err != nil {
		return at(err, "result")
	}
	c, ptr, err := fn.lowerResultCall(ctx, opts, params, results)
	if err != nil {
		return err
	}
	if fn.spillResult {
		return at(c.storeGo(fc.result, r, ptr), "result")
	}
	return at(c.lowerFlatGo(fc.result, r, results[:1]), "result")
}
