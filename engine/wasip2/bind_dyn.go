package wasip2

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/mur-go/mur/engine/wit"
)

// dynConv converts values whose Go types a type parameter cannot take
// apart (structs and arrays) through reflection, with the Go values
// boxed: records, tuples and variants. No hot call exchanges them: stream
// and poll calls take and return handles, integers, bytes, res and listOf
// (bind_conv.go, bind_generic.go).
type dynConv struct {
	lift  func(c *Ctx, v any) (any, error) // returns a value of the Go type
	lower func(c *Ctx, v any) (any, error) // takes a value of the Go type
}

// dyn compiles the converters between t's values and Go type rt.
func (h *host) dyn(t wit.Type, rt reflect.Type) (dynConv, error) {
	if rt.Kind() != reflect.Interface {
		if g, ok := reflect.Zero(rt).Interface().(generic); ok {
			return g.dyn(h, t)
		}
	}
	if r, own := handleOf(t); r != nil {
		if err := h.checkObject(r, rt); err != nil {
			return dynConv{}, err
		}
		return dynHandle(t, r, own, rt), nil
	}
	if e := exactType(t); e != nil {
		if rt != e {
			return dynConv{}, mismatch(t, rt, "want "+e.String())
		}
		return dynExact(t, rt), nil
	}
	switch wt := t.(type) {
	case *wit.Record:
		names := make([]string, len(wt.Fields))
		types := make([]wit.Type, len(wt.Fields))
		for i, f := range wt.Fields {
			names[i], types[i] = f.Name, f.Type
		}
		return h.dynMembers(t, names, types, rt)
	case *wit.Tuple:
		return h.dynMembers(t, nil, wt.Types, rt)
	case *wit.Variant:
		return h.dynVariant(wt, rt)
	case *wit.Option:
		return dynConv{}, mismatch(t, rt, "want opt[…]")
	case *wit.Result:
		return dynConv{}, mismatch(t, rt, "want res[…, …]")
	case *wit.List:
		return dynConv{}, mismatch(t, rt, "want listOf[…]")
	}
	return dynConv{}, mismatch(t, rt, "")
}

func dynExact(t wit.Type, rt reflect.Type) dynConv {
	same := func(c *Ctx, v any) (any, error) {
		if reflect.TypeOf(v) != rt {
			return nil, badValue(t, v)
		}
		return v, nil
	}
	return dynConv{lift: same, lower: same}
}

func dynHandle(t wit.Type, r *wit.ResourceType, own bool, rt reflect.Type) dynConv {
	return dynConv{
		lift: func(c *Ctx, v any) (any, error) {
			h, ok := v.(wit.Resource)
			if !ok {
				return nil, badValue(t, v)
			}
			var o any
			if own {
				o = c.take(h.Rep)
			} else {
				o = c.lookup(h.Rep)
			}
			if reflect.TypeOf(o) != rt {
				return nil, fmt.Errorf("%w (%s rep %d)", errBadHandle, r.Name, h.Rep)
			}
			return o, nil
		},
		lower: func(c *Ctx, v any) (any, error) {
			if !own {
				return nil, fmt.Errorf("wasip2: a host function cannot return a borrowed handle (%s)", r.Name)
			}
			if reflect.TypeOf(v) != rt || reflect.ValueOf(v).IsNil() {
				return nil, fmt.Errorf("wasip2: the host function returned no %s object", r.Name)
			}
			return c.newRes(r, v), nil
		},
	}
}

// dynMembers converts a record or tuple (names nil) and a struct, or a
// tuple and an array.
func (h *host) dynMembers(t wit.Type, names []string, types []wit.Type, rt reflect.Type) (dynConv, error) {
	n := len(types)
	member := reflect.Value.Field
	switch {
	case rt.Kind() == reflect.Array && names == nil:
		if rt.Len() != n {
			return dynConv{}, mismatch(t, rt, fmt.Sprintf("want an array of %d", n))
		}
		member = reflect.Value.Index
	case rt.Kind() != reflect.Struct:
		return dynConv{}, mismatch(t, rt, "want a struct")
	case rt.NumField() != n:
		return dynConv{}, mismatch(t, rt, fmt.Sprintf("want %d fields, the struct has %d", n, rt.NumField()))
	}
	convs := make([]dynConv, n)
	for i, mt := range types {
		var ft reflect.Type
		if rt.Kind() == reflect.Struct {
			f := rt.Field(i)
			if err := checkField(f, names, i); err != nil {
				return dynConv{}, mismatch(t, rt, err.Error())
			}
			ft = f.Type
		} else {
			ft = rt.Elem()
		}
		c, err := h.dyn(mt, ft)
		if err != nil {
			return dynConv{}, fmt.Errorf("%s member %d: %w", wit.TypeString(t), i, err)
		}
		convs[i] = c
	}
	return dynConv{
		lift: func(c *Ctx, v any) (any, error) {
			src, ok := v.([]any)
			if !ok || len(src) != n {
				return nil, badValue(t, v)
			}
			out := reflect.New(rt).Elem()
			for i, conv := range convs {
				x, err := conv.lift(c, src[i])
				if err != nil {
					return nil, err
				}
				member(out, i).Set(reflect.ValueOf(x))
			}
			return out.Interface(), nil
		},
		lower: func(c *Ctx, v any) (any, error) {
			s := reflect.ValueOf(v)
			out := make([]any, n)
			for i, conv := range convs {
				x, err := conv.lower(c, member(s, i).Interface())
				if err != nil {
					return nil, err
				}
				out[i] = x
			}
			return out, nil
		},
	}, nil
}

// checkField checks struct field i against member i: exported, and named
// after it when the member has a name.
func checkField(f reflect.StructField, names []string, i int) error {
	if !f.IsExported() {
		return fmt.Errorf("field %s is not exported", f.Name)
	}
	if names != nil && !sameName(names[i], f.Name) {
		return fmt.Errorf("field %d is %s, the WIT field %q", i, f.Name, names[i])
	}
	return nil
}

// sameName compares a WIT name with a Go field name.
func sameName(witName, goName string) bool {
	return strings.EqualFold(strings.ReplaceAll(witName, "-", ""), goName)
}

var caseType = reflect.TypeFor[uint32]()

// dynVariant converts a variant and a struct whose first field is Case
// and whose others are the payloads of the cases that have one, in order.
func (h *host) dynVariant(t *wit.Variant, rt reflect.Type) (dynConv, error) {
	if rt.Kind() != reflect.Struct || rt.NumField() == 0 || rt.Field(0).Name != "Case" || rt.Field(0).Type != caseType {
		return dynConv{}, mismatch(t, rt, "want a struct whose first field is Case uint32")
	}
	field := make([]int, len(t.Cases)) // the payload's field, 0 for none
	convs := make([]dynConv, len(t.Cases))
	next := 1
	for i, cs := range t.Cases {
		if cs.Type == nil {
			continue
		}
		if next == rt.NumField() {
			return dynConv{}, mismatch(t, rt, fmt.Sprintf("no field for the payload of case %q", cs.Name))
		}
		f := rt.Field(next)
		if !f.IsExported() || !sameName(cs.Name, f.Name) {
			return dynConv{}, mismatch(t, rt, fmt.Sprintf("field %s is not the payload of case %q", f.Name, cs.Name))
		}
		c, err := h.dyn(cs.Type, f.Type)
		if err != nil {
			return dynConv{}, fmt.Errorf("%s case %q: %w", wit.TypeString(t), cs.Name, err)
		}
		field[i], convs[i] = next, c
		next++
	}
	if next != rt.NumField() {
		return dynConv{}, mismatch(t, rt, fmt.Sprintf("field %s is the payload of no case", rt.Field(next).Name))
	}
	return dynConv{
		lift: func(c *Ctx, v any) (any, error) {
			vv, ok := v.(wit.VariantValue)
			if !ok || vv.Case >= uint32(len(field)) {
				return nil, badValue(t, v)
			}
			out := reflect.New(rt).Elem()
			out.Field(0).SetUint(uint64(vv.Case))
			if f := field[vv.Case]; f != 0 {
				x, err := convs[vv.Case].lift(c, vv.Value)
				if err != nil {
					return nil, err
				}
				out.Field(f).Set(reflect.ValueOf(x))
			}
			return out.Interface(), nil
		},
		lower: func(c *Ctx, v any) (any, error) {
			s := reflect.ValueOf(v)
			cs := s.Field(0).Uint()
			if cs >= uint64(len(field)) {
				return nil, fmt.Errorf("wasip2: case %d of %s, which has %d", cs, wit.TypeString(t), len(field))
			}
			out := wit.VariantValue{Case: uint32(cs)}
			if f := field[cs]; f != 0 {
				x, err := convs[cs].lower(c, s.Field(f).Interface())
				if err != nil {
					return nil, err
				}
				out.Value = x
			}
			return out, nil
		},
	}, nil
}
