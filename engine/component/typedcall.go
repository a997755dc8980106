package component

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/plan"
)

// Typed is an exported function called with Go values: the arguments are
// lowered straight from a P and the result lifted straight into an R by
// codecs compiled once (canon.FuncCodec), without the dynamic values of
// package wit in between. Build it with TypedFunc.
//
// P carries the parameters: the parameter's Go type when the function has
// exactly one, otherwise a struct with one exported field per parameter in
// order (struct{} for none). R is the result's Go type, struct{} when the
// function has none. Go types map to WIT types as Define documents (see
// also canon.NewCodec); any and the wit value types (wit.ResultValue,
// wit.VariantValue, wit.OptionValue) take the dynamic value of their part.
//
// Calls go through the same path as Func.Call: the store's deadline,
// poisoning and error classes. A Typed is bound to its Func's store and,
// like it, is not for concurrent use.
type Typed[P, R any] struct {
	f *Func
	c *typedCodec[P, R]
}

// typedCodec is what a Typed compiles for one function definition: it
// depends on the definition only, never on a store, so TypedExport
// shares it between instances.
type typedCodec[P, R any] struct {
	def *plan.Func
	fc  *canon.FuncCodec
	// Functions the component imports and re-exports are called on the
	// host with dynamic values; these convert for them.
	args   func(p *P) []any
	result toGoFunc
}

// TypedFunc checks f's WIT type against P and R and compiles the codecs.
// The error names the parameter or result, the field, and both types.
func TypedFunc[P, R any](f *Func) (*Typed[P, R], error) {
	c, err := newTypedCodec[P, R](f.def, f.name)
	if err != nil {
		return nil, err
	}
	return &Typed[P, R]{f: f, c: c}, nil
}

// newTypedCodec checks def's WIT type against P and R and compiles the
// codecs; name is the export, for errors.
func newTypedCodec[P, R any](def *plan.Func, name string) (*typedCodec[P, R], error) {
	pt, rt := reflect.TypeFor[P](), reflect.TypeFor[R]()
	typ := def.Type
	resultType := rt
	if typ.Result == nil {
		if rt != reflect.TypeFor[struct{}]() {
			return nil, fmt.Errorf("typed %s: the function has no result, want R struct{}, got %s", name, rt)
		}
		resultType = nil
	}
	fc, err := canon.NewFuncCodec(def.ABI, pt, resultType)
	if err != nil {
		return nil, fmt.Errorf("typed %s: %w", name, err)
	}
	c := &typedCodec[P, R]{def: def, fc: fc}
	if def.Imported {
		if err := c.dynamicConverters(); err != nil {
			return nil, fmt.Errorf("typed %s: %w", name, err)
		}
	}
	return c, nil
}

// dynamicConverters prepares the calls of an imported function, which
// take and return dynamic values.
func (c *typedCodec[P, R]) dynamicConverters() error {
	typ := c.def.Type
	pt := reflect.TypeFor[P]()
	conv := make([]fromGoFunc, len(typ.Params))
	for i, p := range typ.Params {
		ft := pt
		if len(typ.Params) != 1 {
			ft = pt.Field(i).Type
		}
		fc, err := fromGo(p.Type, ft)
		if err != nil {
			return fmt.Errorf("parameter %q: %w", p.Name, err)
		}
		conv[i] = fc
	}
	c.args = func(p *P) []any {
		v := reflect.ValueOf(p).Elem()
		args := make([]any, len(conv))
		for i, fc := range conv {
			if len(conv) == 1 {
				args[i] = fc(v)
			} else {
				args[i] = fc(v.Field(i))
			}
		}
		return args
	}
	if typ.Result != nil {
		rc, err := toGo(typ.Result, reflect.TypeFor[R]())
		if err != nil {
			return fmt.Errorf("result: %w", err)
		}
		c.result = rc
	}
	return nil
}

// Func returns the function t calls.
func (t *Typed[P, R]) Func() *Func { return t.f }

// Call calls the function with p under the store's deadline, as Func.Call,
// and returns its result. Errors are those of Func.Call; on error the
// result is R's zero value.
func (t *Typed[P, R]) Call(ctx context.Context, p P) (R, error) {
	return t.c.call(ctx, t.f, &p)
}

// call is Typed.Call of f, whose definition is c's.
func (c *typedCodec[P, R]) call(ctx context.Context, f *Func, p *P) (R, error) {
	var r R
	s := f.s
	if err := s.poisoned(); err != nil {
		return r, fmt.Errorf("calling %s: %w: %w", f.name, ErrPoisoned, err)
	}
	nested := storeFrom(ctx) == s
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	// As in Func.Call: a refused growth in an earlier call says nothing
	// about this one.
	s.inst.Mem.Desired = 0
	// r is read only once the call has returned: an abandoned call may
	// still write it.
	err := s.run(ctx, nested, func() error {
		if c.def.Imported {
			return c.callImported(ctx, s, p, &r)
		}
		return s.callTyped(ctx, c.def, c.fc, p, &r)
	})
	if err != nil {
		var zero R
		return zero, s.classify(ctx, f.name, err)
	}
	return r, nil
}

// callImported calls a re-exported host function with dynamic values.
func (c *typedCodec[P, R]) callImported(ctx context.Context, s *Store, p *P, r *R) error {
	v, err := s.callFunc(ctx, c.def, c.args(p))
	if err != nil || c.result == nil {
		return err
	}
	rv, err := c.result(v)
	if err != nil {
		return err
	}
	reflect.ValueOf(r).Elem().Set(rv)
	return nil
}

// callTyped is callFunc for a lifted guest function with the arguments
// lowered from args (a *P) and the result lifted into result (a *R) by
// fc. Keep it in step with callFunc: the steps and their order are the
// same, only the two conversions differ.
func (s *Store) callTyped(ctx context.Context, fn *plan.Func, fc *canon.FuncCodec, args, result any) error {
	if s.active[fn.CompInst] {
		return &canon.Trap{Reason: "cannot re-enter a component instance that is already running"}
	}
	rt, err := s.liftedState(fn)
	if err != nil {
		return err
	}
	scope := &callScope{}
	rt.hs.scope = scope
	stack, err := func() ([]uint64, error) {
		s.guard()
		defer s.unguard()
		return fc.LowerArgs(ctx, &rt.opts, args, nil)
	}()
	if err != nil {
		if errors.Is(err, errAbandoned) {
			return err
		}
		return &argsError{err}
	}
	s.active[fn.CompInst] = true
	err = rt.fn.CallWithStack(ctx, stack)
	s.active[fn.CompInst] = false
	if s.abandoned() {
		return errAbandoned
	}
	if err != nil {
		return err
	}
	nres := len(fn.ABI.LiftSignature().Results)
	if err := fc.LiftResult(ctx, &rt.opts, stack[:nres], result); err != nil {
		return err
	}
	if rt.post != nil {
		if err := rt.post.CallWithStack(ctx, stack); err != nil {
			return fmt.Errorf("post-return: %w", err)
		}
	}
	scope.release()
	if scope.borrows != 0 {
		return &canon.Trap{Reason: fmt.Sprintf("%d borrowed handles were not dropped before the call returned", scope.borrows)}
	}
	return nil
}
