package wasip2

import (
	"fmt"
	"reflect"

	"github.com/mur-go/mur/engine/wit"
)

// liftFn converts the engine's value of one WIT type to a Go value.
type liftFn[T any] func(c *Ctx, v any) (T, error)

// lowerFn converts a Go value to the engine's value of one WIT type.
type lowerFn[T any] func(c *Ctx, v T) (any, error)

// generic is implemented by opt and res, whose converters need their type
// parameters to stay free of reflection and boxing on the hot paths
// (every stream call returns a res). lifter and lowerer return a liftFn
// or lowerFn of the receiver's own type.
type generic interface {
	lifter(h *host, t wit.Type) (any, error)
	lowerer(h *host, t wit.Type) (any, error)
	dyn(h *host, t wit.Type) (dynConv, error)
}

// lifter compiles the converter from the engine's values of t to T.
func lifter[T any](h *host, t wit.Type) (liftFn[T], error) {
	var zero T
	if g, ok := any(zero).(generic); ok {
		f, err := g.lifter(h, t)
		if err != nil {
			return nil, err
		}
		return f.(liftFn[T]), nil
	}
	rt := reflect.TypeFor[T]()
	if r, own := handleOf(t); r != nil {
		if err := h.checkObject(r, rt); err != nil {
			return nil, err
		}
		return liftHandle[T](r, own), nil
	}
	if exactType(t) == rt {
		return func(c *Ctx, v any) (T, error) {
			x, ok := v.(T)
			if !ok {
				return x, badValue(t, v)
			}
			return x, nil
		}, nil
	}
	d, err := h.dyn(t, rt)
	if err != nil {
		return nil, err
	}
	return func(c *Ctx, v any) (T, error) {
		x, err := d.lift(c, v)
		if err != nil {
			return zero, err
		}
		return x.(T), nil // dyn lifts to rt
	}, nil
}

// lowerer compiles the converter from T to the engine's values of t.
func lowerer[T any](h *host, t wit.Type) (lowerFn[T], error) {
	var zero T
	if g, ok := any(zero).(generic); ok {
		f, err := g.lowerer(h, t)
		if err != nil {
			return nil, err
		}
		return f.(lowerFn[T]), nil
	}
	rt := reflect.TypeFor[T]()
	if r, own := handleOf(t); r != nil {
		if !own {
			return nil, fmt.Errorf("a host function cannot return a borrowed handle (%s)", wit.TypeString(t))
		}
		if err := h.checkObject(r, rt); err != nil {
			return nil, err
		}
		return lowerHandle[T](r), nil
	}
	if exactType(t) == rt {
		return func(c *Ctx, v T) (any, error) { return v, nil }, nil
	}
	d, err := h.dyn(t, rt)
	if err != nil {
		return nil, err
	}
	return func(c *Ctx, v T) (any, error) { return d.lower(c, v) }, nil
}

// liftHandle finds the host object behind a handle: a borrow leaves it in
// the table, an own takes it out (the guest gave it to the host).
func liftHandle[T any](r *wit.ResourceType, own bool) liftFn[T] {
	return func(c *Ctx, v any) (T, error) {
		h, ok := v.(wit.Resource)
		if !ok {
			var zero T
			return zero, badValue(&wit.Borrow{Resource: r}, v)
		}
		var o any
		if own {
			o = c.take(h.Rep)
		} else {
			o = c.lookup(h.Rep)
		}
		x, ok := o.(T)
		if !ok {
			return x, fmt.Errorf("%w (%s rep %d)", errBadHandle, r.Name, h.Rep)
		}
		return x, nil
	}
}

// lowerHandle stores a host object and returns the new handle on it.
func lowerHandle[T any](r *wit.ResourceType) lowerFn[T] {
	return func(c *Ctx, v T) (any, error) {
		var zero T
		o := any(v)
		if o == any(zero) { // object types are pointers (objectTypes)
			return nil, fmt.Errorf("wasip2: the host function returned no %s object", r.Name)
		}
		return c.newRes(r, o), nil
	}
}

// handleOf returns the resource type of a handle type, and whether the
// handle owns it; nil for any other type.
func handleOf(t wit.Type) (r *wit.ResourceType, own bool) {
	switch t := t.(type) {
	case *wit.Own:
		return t.Resource, true
	case *wit.Borrow:
		return t.Resource, false
	}
	return nil, false
}

// checkObject refuses a Go type other than the host object type declared
// for resource r.
func (h *host) checkObject(r *wit.ResourceType, rt reflect.Type) error {
	want, ok := h.objects[r]
	if !ok {
		return fmt.Errorf("resource %s has no host object type (objectTypes)", r.Name)
	}
	if want.Kind() != reflect.Pointer {
		return fmt.Errorf("the host object type of %s, %s, is not a pointer", r.Name, want)
	}
	if rt != want {
		return fmt.Errorf("a handle to %s is Go %s, not %s", r.Name, want, rt)
	}
	return nil
}

// exactType is the Go type of the engine's values of t when a host
// function takes and returns those values as they are: primitives,
// strings, list<u8>, enums and flags. It is nil for other types.
func exactType(t wit.Type) reflect.Type {
	switch t := t.(type) {
	case wit.Prim:
		return primTypes[t]
	case *wit.Enum:
		return reflect.TypeFor[uint32]()
	case *wit.Flags:
		return reflect.TypeFor[uint64]()
	case *wit.List:
		if t.Elem == wit.U8 {
			return reflect.TypeFor[[]byte]()
		}
	}
	return nil
}

var primTypes = map[wit.Prim]reflect.Type{
	wit.Bool: reflect.TypeFor[bool](), wit.S8: reflect.TypeFor[int8](), wit.U8: reflect.TypeFor[uint8](),
	wit.S16: reflect.TypeFor[int16](), wit.U16: reflect.TypeFor[uint16](), wit.S32: reflect.TypeFor[int32](),
	wit.U32: reflect.TypeFor[uint32](), wit.S64: reflect.TypeFor[int64](), wit.U64: reflect.TypeFor[uint64](),
	wit.F32: reflect.TypeFor[float32](), wit.F64: reflect.TypeFor[float64](), wit.Char: reflect.TypeFor[rune](),
	wit.String: reflect.TypeFor[string](),
}

// mismatch is a registration error: Go type rt cannot carry WIT type t.
func mismatch(t wit.Type, rt reflect.Type, why string) error {
	if why != "" {
		why = ": " + why
	}
	return fmt.Errorf("WIT %s cannot be Go %s%s", wit.TypeString(t), rt, why)
}

// badValue is a call-time error: the engine passed a value that is not of
// t's representation. Its type checks make that a host bug.
func badValue(t wit.Type, v any) error {
	return fmt.Errorf("wasip2: Go %T is not a value of WIT %s", v, wit.TypeString(t))
}
