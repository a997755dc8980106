package wasip2

import (
	"context"
	"fmt"
	"reflect"

	"github.com/mur-go/mur/engine/wit"
)

// Every WASI function is a Go function with a Go type for each parameter
// and for the result, defined with def0 … def5 (by its number of
// parameters). The definition checks that signature against the
// function's WIT type once, when Register runs, and compiles the
// converters between the engine's values (package wit's dynamic
// representation) and the Go types. A mismatch is Register's error, naming
// the function, the parameter and both types. At call time a value of the
// wrong shape, which the engine's own type checks rule out, traps with the
// same names: nothing is ever read as a zero value.
//
// Go types of WIT types (bind_conv.go, bind_generic.go, bind_dyn.go):
//
//	bool, integers, floats   the engine's Go type: bool, int8 … uint64, float32, float64
//	char, string             rune, string
//	list<u8>                 []byte
//	list<T>                  listOf[E]
//	record                   struct, one exported field per WIT field, in order, names matching
//	tuple                    struct, one exported field per member, in order; or [N]E
//	variant                  struct: Case uint32, then one exported field per case that has
//	                         a payload, in order, names matching
//	enum                     uint32 (the case index)
//	flags                    uint64 (bit i is flag i)
//	option<T>                opt[E]
//	result<T, E>             res[T, E]; unit for a side without a payload
//	own<R>, borrow<R>        R's host object type (objectTypes): a borrow looks the object
//	                         up, an own parameter takes it from the store's table, an own
//	                         result stores it under a new handle
//	no result                unit
//
// Names match when they are equal ignoring case and WIT's hyphens
// ("data-access-timestamp" and DataAccessTimestamp).

// unit is the Go type of no value: the result of a function without one,
// the side of a result without a payload.
type unit = struct{}

var unitType = reflect.TypeFor[unit]()

// hostFn is a host function as the engine calls it, with a Ctx.
type hostFn func(ctx context.Context, c *Ctx, args []any) (any, error)

// binding is one host function being defined.
type binding struct {
	h           *host
	iface, name string
	typ         *wit.Func
	err         error
}

func (h *host) bind(iface, name string, typ *wit.Func, arity int) *binding {
	b := &binding{h: h, iface: iface, name: name, typ: typ}
	if len(typ.Params) != arity {
		b.fail(fmt.Errorf("the WIT function has %d parameters, the Go function %d", len(typ.Params), arity))
	}
	return b
}

func (b *binding) fail(err error) {
	if b.err == nil {
		b.err = fmt.Errorf("%s#%s: %w", b.iface, b.name, err)
	}
}

// define registers f, or records why the function could not be bound.
func (b *binding) define(f hostFn) {
	if b.err != nil {
		if b.h.err == nil {
			b.h.err = b.err
		}
		return
	}
	b.h.define(b.iface, b.name, b.typ, f)
}

// argErr names the parameter a call's argument could not be converted for.
func (b *binding) argErr(i int, err error) error {
	return fmt.Errorf("%s#%s: parameter %q: %w", b.iface, b.name, b.typ.Params[i].Name, err)
}

func (b *binding) resultErr(err error) error {
	return fmt.Errorf("%s#%s: result: %w", b.iface, b.name, err)
}

// arg compiles the converter of parameter i.
func arg[T any](b *binding, i int) liftFn[T] {
	if b.err != nil {
		return nil
	}
	p := b.typ.Params[i]
	f, err := lifter[T](b.h, p.Type)
	if err != nil {
		b.fail(fmt.Errorf("parameter %q: %w", p.Name, err))
	}
	return f
}

// ret compiles the converter of the result.
func ret[R any](b *binding) lowerFn[R] {
	if b.err != nil {
		return nil
	}
	if b.typ.Result == nil {
		if rt := reflect.TypeFor[R](); rt != unitType {
			b.fail(fmt.Errorf("the WIT function has no result, so the Go result must be unit, not %s", rt))
		}
		return func(*Ctx, R) (any, error) { return nil, nil }
	}
	f, err := lowerer[R](b.h, b.typ.Result)
	if err != nil {
		b.fail(fmt.Errorf("result: %w", err))
	}
	return f
}

// finish converts a call's result.
func finish[R any](b *binding, lower lowerFn[R], c *Ctx, v R, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	out, err := lower(c, v)
	if err != nil {
		return nil, b.resultErr(err)
	}
	return out, nil
}

func def0[R any](h *host, iface, name string, typ *wit.Func, f func(context.Context, *Ctx) (R, error)) {
	b := h.bind(iface, name, typ, 0)
	r := ret[R](b)
	b.define(func(ctx context.Context, c *Ctx, _ []any) (any, error) {
		v, err := f(ctx, c)
		return finish(b, r, c, v, err)
	})
}

func def1[A, R any](h *host, iface, name string, typ *wit.Func, f func(context.Context, *Ctx, A) (R, error)) {
	b := h.bind(iface, name, typ, 1)
	a, r := arg[A](b, 0), ret[R](b)
	b.define(func(ctx context.Context, c *Ctx, args []any) (any, error) {
		x, err := a(c, args[0])
		if err != nil {
			return nil, b.argErr(0, err)
		}
		v, err := f(ctx, c, x)
		return finish(b, r, c, v, err)
	})
}

func def2[A, B, R any](h *host, iface, name string, typ *wit.Func, f func(context.Context, *Ctx, A, B) (R, error)) {
	b := h.bind(iface, name, typ, 2)
	a0, a1, r := arg[A](b, 0), arg[B](b, 1), ret[R](b)
	b.define(func(ctx context.Context, c *Ctx, args []any) (any, error) {
		x0, err := a0(c, args[0])
		if err != nil {
			return nil, b.argErr(0, err)
		}
		x1, err := a1(c, args[1])
		if err != nil {
			return nil, b.argErr(1, err)
		}
		v, err := f(ctx, c, x0, x1)
		return finish(b, r, c, v, err)
	})
}

func def3[A, B, C, R any](h *host, iface, name string, typ *wit.Func, f func(context.Context, *Ctx, A, B, C) (R, error)) {
	b := h.bind(iface, name, typ, 3)
	a0, a1, a2, r := arg[A](b, 0), arg[B](b, 1), arg[C](b, 2), ret[R](b)
	b.define(func(ctx context.Context, c *Ctx, args []any) (any, error) {
		x0, err := a0(c, args[0])
		if err != nil {
			return nil, b.argErr(0, err)
		}
		x1, err := a1(c, args[1])
		if err != nil {
			return nil, b.argErr(1, err)
		}
		x2, err := a2(c, args[2])
		if err != nil {
			return nil, b.argErr(2, err)
		}
		v, err := f(ctx, c, x0, x1, x2)
		return finish(b, r, c, v, err)
	})
}

func def4[A, B, C, D, R any](h *host, iface, name string, typ *wit.Func, f func(context.Context, *Ctx, A, B, C, D) (R, error)) {
	b := h.bind(iface, name, typ, 4)
	a0, a1, a2, a3, r := arg[A](b, 0), arg[B](b, 1), arg[C](b, 2), arg[D](b, 3), ret[R](b)
	b.define(func(ctx context.Context, c *Ctx, args []any) (any, error) {
		x0, err := a0(c, args[0])
		if err != nil {
			return nil, b.argErr(0, err)
		}
		x1, err := a1(c, args[1])
		if err != nil {
			return nil, b.argErr(1, err)
		}
		x2, err := a2(c, args[2])
		if err != nil {
			return nil, b.argErr(2, err)
		}
		x3, err := a3(c, args[3])
		if err != nil {
			return nil, b.argErr(3, err)
		}
		v, err := f(ctx, c, x0, x1, x2, x3)
		return finish(b, r, c, v, err)
	})
}

func def5[A, B, C, D, E, R any](h *host, iface, name string, typ *wit.Func, f func(context.Context, *Ctx, A, B, C, D, E) (R, error)) {
	b := h.bind(iface, name, typ, 5)
	a0, a1, a2, a3, a4, r := arg[A](b, 0), arg[B](b, 1), arg[C](b, 2), arg[D](b, 3), arg[E](b, 4), ret[R](b)
	b.define(func(ctx context.Context, c *Ctx, args []any) (any, error) {
		x0, err := a0(c, args[0])
		if err != nil {
			return nil, b.argErr(0, err)
		}
		x1, err := a1(c, args[1])
		if err != nil {
			return nil, b.argErr(1, err)
		}
		x2, err := a2(c, args[2])
		if err != nil {
			return nil, b.argErr(2, err)
		}
		x3, err := a3(c, args[3])
		if err != nil {
			return nil, b.argErr(3, err)
		}
		x4, err := a4(c, args[4])
		if err != nil {
			return nil, b.argErr(4, err)
		}
		v, err := f(ctx, c, x0, x1, x2, x3, x4)
		return finish(b, r, c, v, err)
	})
}

// refuse defines a function that always returns the error e, whatever its
// arguments: the WASI functions this host grants no access to. e is
// checked against the error side of the function's result.
func refuse[E any](h *host, iface, name string, typ *wit.Func, e E) {
	b := h.bind(iface, name, typ, len(typ.Params))
	rt, isResult := typ.Result.(*wit.Result)
	if !isResult {
		b.fail(fmt.Errorf("the WIT function does not return a result, so it cannot fail with an error value"))
		b.define(nil)
		return
	}
	var v any
	if rt.Err != nil {
		lower, err := lowerer[E](h, rt.Err)
		if err == nil {
			v, err = lower(nil, e)
		}
		if err != nil {
			b.fail(fmt.Errorf("result error: %w", err))
		}
	} else if reflect.TypeFor[E]() != unitType {
		b.fail(fmt.Errorf("the WIT result has no error payload, so the Go error value must be unit"))
	}
	failed := any(wit.Err(v))
	b.define(func(context.Context, *Ctx, []any) (any, error) { return failed, nil })
}

// unsupported defines a function that traps with err whatever its
// arguments: it exists so that components importing its interface link,
// and no guest can reach it holding a valid handle.
func unsupported(h *host, iface, name string, typ *wit.Func, err error) {
	h.bind(iface, name, typ, len(typ.Params)).define(func(context.Context, *Ctx, []any) (any, error) { return nil, err })
}
