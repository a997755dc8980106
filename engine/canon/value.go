package canon

import (
	"github.com/mur-go/mur/engine/wit"
)

// This file maps between the Go representation of compound values (see
// package wit) and the canonical ABI's view of them.

// variantValue builds the Go value of case disc of a variant-like type.
func variantValue(t *Type, disc uint32, payload any) any {
	switch t.kind {
	case wit.KindEnum:
		return disc
	case wit.KindOption:
		return wit.OptionValue{Some: disc == 1, Value: payload}
	case wit.KindResult:
		return wit.ResultValue{Err: disc == 1, Value: payload}
	}
	return wit.VariantValue{Case: disc, Value: payload}
}

// caseOf is match_case: it returns the case index and payload of v, a Go
// value of variant-like type t.
func caseOf(t *Type, v any) (disc uint32, payload any, err error) {
	switch t.kind {
	case wit.KindEnum:
		x, ok := v.(uint32)
		if !ok {
			return 0, nil, mismatch(t, v)
		}
		disc = x
	case wit.KindOption:
		x, ok := v.(wit.OptionValue)
		if !ok {
			return 0, nil, mismatch(t, v)
		}
		if x.Some {
			disc = 1
		}
		payload = x.Value
	case wit.KindResult:
		x, ok := v.(wit.ResultValue)
		if !ok {
			return 0, nil, mismatch(t, v)
		}
		if x.Err {
			disc = 1
		}
		payload = x.Value
	default:
		x, ok := v.(wit.VariantValue)
		if !ok {
			return 0, nil, mismatch(t, v)
		}
		disc, payload = x.Case, x.Value
	}
	if disc >= uint32(len(t.cases)) {
		return 0, nil, badValue(t, "case index %d", disc)
	}
	if t.cases[disc] == nil && payload != nil {
		return 0, nil, badValue(t, "%s with a payload of type %T", caseName(t, disc), payload)
	}
	return disc, payload, nil
}

// caseName names case i of a variant-like type, for errors.
func caseName(t *Type, i uint32) string {
	switch w := t.wit.(type) {
	case *wit.Variant:
		return "case " + quote(w.Cases[i].Name)
	case *wit.Enum:
		return "case " + quote(w.Cases[i])
	case *wit.Option:
		return [...]string{"none", "some"}[i]
	}
	return [...]string{"ok", "error"}[i]
}

func quote(s string) string { return `"` + s + `"` }

// fieldValues checks that v holds one Go value per field of record or
// tuple t.
func fieldValues(t *Type, v any) ([]any, error) {
	vs, ok := v.([]any)
	if !ok {
		return nil, mismatch(t, v)
	}
	if len(vs) != len(t.fields) {
		return nil, badValue(t, "[]any of %d values for %d fields", len(vs), len(t.fields))
	}
	return vs, nil
}

// fixedValues checks that v holds exactly the elements of fixed-length
// list t.
func fixedValues(t *Type, v any) ([]any, error) {
	vs, ok := v.([]any)
	if !ok {
		return nil, mismatch(t, v)
	}
	if len(vs) != int(t.n) {
		return nil, badValue(t, "[]any of %d values for a list of length %d", len(vs), t.n)
	}
	return vs, nil
}

// fieldName locates field i of a record or tuple, for errors.
func fieldName(t *Type, i int) string {
	if t.kind == wit.KindTuple {
		return "tuple element " + t.fields[i].name
	}
	return "record field " + quote(t.fields[i].name)
}

// flagBits checks that v is a flags value with no bits beyond t's flags.
func flagBits(t *Type, v any) (uint64, error) {
	x, ok := v.(uint64)
	if !ok {
		return 0, mismatch(t, v)
	}
	if x&^flagMask(t.n) != 0 {
		return 0, badValue(t, "flags %#x with bits beyond the %d flags", x, t.n)
	}
	return x, nil
}

// liftHandle turns handle index h into the resource it refers to.
func (c *call) liftHandle(t *Type, h uint32) (any, error) {
	r, err := c.liftResource(t, h)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// liftResource is liftHandle without boxing the resource.
func (c *call) liftResource(t *Type, h uint32) (wit.Resource, error) {
	hs, err := c.handles()
	if err != nil {
		return wit.Resource{}, err
	}
	if t.kind == wit.KindOwn {
		return hs.LiftOwn(t.resource, h)
	}
	return hs.LiftBorrow(t.resource, h)
}

// lowerHandle enters resource v into the handle table and returns its index.
func (c *call) lowerHandle(t *Type, v any) (uint32, error) {
	r, ok := v.(wit.Resource)
	if !ok {
		return 0, mismatch(t, v)
	}
	return c.lowerResource(t, r)
}

// lowerResource is lowerHandle for a resource already known to be one.
func (c *call) lowerResource(t *Type, r wit.Resource) (uint32, error) {
	// Type identity is the Handles' business: it alone knows how the
	// component's view of a resource type maps to the runtime type.
	hs, err := c.handles()
	if err != nil {
		return 0, err
	}
	if t.kind == wit.KindOwn {
		return hs.LowerOwn(t.resource, r)
	}
	return hs.LowerBorrow(t.resource, r)
}
