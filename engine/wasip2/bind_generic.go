package wasip2

import (
	"fmt"
	"reflect"

	"github.com/mur-go/mur/engine/wit"
)

// opt is the Go type of WIT option<T>.
type opt[T any] struct {
	some bool
	v    T
}

func some[T any](v T) opt[T] { return opt[T]{some: true, v: v} }

func none[T any]() opt[T] { return opt[T]{} }

// get returns the value and whether there is one.
func (o opt[T]) get() (T, bool) { return o.v, o.some }

func (opt[T]) lifter(h *host, t wit.Type) (any, error) {
	ot, ok := t.(*wit.Option)
	if !ok {
		return nil, mismatch(t, reflect.TypeFor[opt[T]](), "")
	}
	elem, err := lifter[T](h, ot.Elem)
	if err != nil {
		return nil, err
	}
	return liftFn[opt[T]](func(c *Ctx, v any) (opt[T], error) {
		ov, ok := v.(wit.OptionValue)
		if !ok {
			return opt[T]{}, badValue(t, v)
		}
		if !ov.Some {
			return opt[T]{}, nil
		}
		x, err := elem(c, ov.Value)
		return opt[T]{some: true, v: x}, err
	}), nil
}

func (opt[T]) lowerer(h *host, t wit.Type) (any, error) {
	ot, ok := t.(*wit.Option)
	if !ok {
		return nil, mismatch(t, reflect.TypeFor[opt[T]](), "")
	}
	elem, err := lowerer[T](h, ot.Elem)
	if err != nil {
		return nil, err
	}
	noneV := any(wit.None())
	return lowerFn[opt[T]](func(c *Ctx, o opt[T]) (any, error) {
		if !o.some {
			return noneV, nil
		}
		x, err := elem(c, o.v)
		if err != nil {
			return nil, err
		}
		return wit.Some(x), nil
	}), nil
}

func (opt[T]) dyn(h *host, t wit.Type) (dynConv, error) { return dynOf[opt[T]](h, t) }

// listOf is the Go type of WIT list<T> for T other than u8 (list<u8> is
// []byte).
type listOf[E any] []E

func (listOf[E]) lifter(h *host, t wit.Type) (any, error) {
	elem, err := listElem[E](t)
	if err != nil {
		return nil, err
	}
	lift, err := lifter[E](h, elem)
	if err != nil {
		return nil, fmt.Errorf("list element: %w", err)
	}
	return liftFn[listOf[E]](func(c *Ctx, v any) (listOf[E], error) {
		src, ok := v.([]any)
		if !ok {
			return nil, badValue(t, v)
		}
		out := make(listOf[E], len(src))
		for i, x := range src {
			var err error
			if out[i], err = lift(c, x); err != nil {
				return nil, err
			}
		}
		return out, nil
	}), nil
}

func (listOf[E]) lowerer(h *host, t wit.Type) (any, error) {
	elem, err := listElem[E](t)
	if err != nil {
		return nil, err
	}
	lower, err := lowerer[E](h, elem)
	if err != nil {
		return nil, fmt.Errorf("list element: %w", err)
	}
	return lowerFn[listOf[E]](func(c *Ctx, l listOf[E]) (any, error) {
		out := make([]any, len(l))
		for i := range l {
			var err error
			if out[i], err = lower(c, l[i]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}), nil
}

func (listOf[E]) dyn(h *host, t wit.Type) (dynConv, error) { return dynOf[listOf[E]](h, t) }

// listElem is the element type of list type t, which must not be
// list<u8>.
func listElem[E any](t wit.Type) (wit.Type, error) {
	lt, ok := t.(*wit.List)
	if !ok {
		return nil, mismatch(t, reflect.TypeFor[listOf[E]](), "")
	}
	if lt.Elem == wit.U8 {
		return nil, mismatch(t, reflect.TypeFor[listOf[E]](), "want []byte")
	}
	return lt.Elem, nil
}

// res is the Go type of WIT result<T, E>. pre, when set, is the value
// already lowered: a result returned on nearly every call is boxed once.
type res[T, E any] struct {
	failed bool
	v      T
	e      E
	pre    any
}

// okv and errv make results: okv[E](v), errv[T](e).
func okv[E, T any](v T) res[T, E] { return res[T, E]{v: v} }

func errv[T, E any](e E) res[T, E] { return res[T, E]{failed: true, e: e} }

func (res[T, E]) lifter(h *host, t wit.Type) (any, error) {
	rt, ok := t.(*wit.Result)
	if !ok {
		return nil, mismatch(t, reflect.TypeFor[res[T, E]](), "")
	}
	okL, err := sideLifter[T](h, rt.OK)
	if err != nil {
		return nil, fmt.Errorf("%s ok: %w", wit.TypeString(t), err)
	}
	errL, err := sideLifter[E](h, rt.Err)
	if err != nil {
		return nil, fmt.Errorf("%s error: %w", wit.TypeString(t), err)
	}
	return liftFn[res[T, E]](func(c *Ctx, v any) (res[T, E], error) {
		var r res[T, E]
		rv, ok := v.(wit.ResultValue)
		if !ok {
			return r, badValue(t, v)
		}
		var err error
		r.failed = rv.Err
		switch {
		case rv.Err && errL != nil:
			r.e, err = errL(c, rv.Value)
		case !rv.Err && okL != nil:
			r.v, err = okL(c, rv.Value)
		}
		return r, err
	}), nil
}

func (res[T, E]) lowerer(h *host, t wit.Type) (any, error) {
	rt, ok := t.(*wit.Result)
	if !ok {
		return nil, mismatch(t, reflect.TypeFor[res[T, E]](), "")
	}
	okL, err := sideLowerer[T](h, rt.OK)
	if err != nil {
		return nil, fmt.Errorf("%s ok: %w", wit.TypeString(t), err)
	}
	errL, err := sideLowerer[E](h, rt.Err)
	if err != nil {
		return nil, fmt.Errorf("%s error: %w", wit.TypeString(t), err)
	}
	// Boxed once: the stream calls the preview1 adapter makes per 4 KiB
	// of output return ok without a payload and allocate nothing for it.
	okUnit, errUnit := any(wit.Ok(nil)), any(wit.Err(nil))
	return lowerFn[res[T, E]](func(c *Ctx, r res[T, E]) (any, error) {
		switch {
		case r.pre != nil:
			return r.pre, nil
		case r.failed && errL == nil:
			return errUnit, nil
		case r.failed:
			x, err := errL(c, r.e)
			return wit.Err(x), err
		case okL == nil:
			return okUnit, nil
		}
		x, err := okL(c, r.v)
		return wit.Ok(x), err
	}), nil
}

func (res[T, E]) dyn(h *host, t wit.Type) (dynConv, error) { return dynOf[res[T, E]](h, t) }

// sideLifter converts one side of a result; nil when the side has no
// payload, which T must then say by being unit.
func sideLifter[T any](h *host, t wit.Type) (liftFn[T], error) {
	if t == nil {
		return nil, noPayload[T]()
	}
	return lifter[T](h, t)
}

func sideLowerer[T any](h *host, t wit.Type) (lowerFn[T], error) {
	if t == nil {
		return nil, noPayload[T]()
	}
	return lowerer[T](h, t)
}

func noPayload[T any]() error {
	if rt := reflect.TypeFor[T](); rt != unitType {
		return fmt.Errorf("the WIT side has no payload, so the Go type must be unit, not %s", rt)
	}
	return nil
}

// dynOf is the reflection form of T's typed converters, for an opt, res
// or listOf inside a record, tuple or variant.
func dynOf[T any](h *host, t wit.Type) (dynConv, error) {
	lift, err := lifter[T](h, t)
	if err != nil {
		return dynConv{}, err
	}
	// Only a result is lowered, and results hold no borrowed handles:
	// a type that can be lifted but not lowered is a parameter's.
	lower, lowerErr := lowerer[T](h, t)
	d := dynConv{
		lift: func(c *Ctx, v any) (any, error) { return lift(c, v) },
		lower: func(c *Ctx, v any) (any, error) {
			if lowerErr != nil {
				return nil, lowerErr
			}
			x, ok := v.(T)
			if !ok {
				return nil, badValue(t, v)
			}
			return lower(c, x)
		},
	}
	return d, nil
}
