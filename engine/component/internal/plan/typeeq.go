package plan

import (
	"fmt"
	"slices"

	"github.com/mur-go/mur/engine/wit"
)

// FuncTypesMatch checks that a guest's view of an imported function equals
// the host's definition. Guest resource types are mapped through bound to
// the host types they were linked to. Names of types don't matter; names of
// fields, cases, flags and parameters do.
func FuncTypesMatch(guest, host *wit.Func, bound map[*wit.ResourceType]*wit.ResourceType) error {
	if len(guest.Params) != len(host.Params) {
		return fmt.Errorf("%d parameters, host has %d", len(guest.Params), len(host.Params))
	}
	for i := range guest.Params {
		if err := TypesMatch(guest.Params[i].Type, host.Params[i].Type, bound); err != nil {
			return fmt.Errorf("parameter %q: %w", guest.Params[i].Name, err)
		}
	}
	if err := TypesMatch(guest.Result, host.Result, bound); err != nil {
		return fmt.Errorf("result: %w", err)
	}
	return nil
}

// TypesMatch is FuncTypesMatch for one type.
func TypesMatch(g, h wit.Type, bound map[*wit.ResourceType]*wit.ResourceType) error {
	if g == nil || h == nil {
		if g == nil && h == nil {
			return nil
		}
		return fmt.Errorf("%s vs %s", describe(g), describe(h))
	}
	if g.Kind() != h.Kind() {
		return fmt.Errorf("%s vs %s", describe(g), describe(h))
	}
	mismatch := func(what string) error { return fmt.Errorf("%s differ: %s vs %s", what, describe(g), describe(h)) }
	switch g := g.(type) {
	case wit.Prim:
		return nil
	case *wit.List:
		return TypesMatch(g.Elem, h.(*wit.List).Elem, bound)
	case *wit.FixedList:
		hl := h.(*wit.FixedList)
		if g.Len != hl.Len {
			return mismatch("list lengths")
		}
		return TypesMatch(g.Elem, hl.Elem, bound)
	case *wit.Map:
		hm := h.(*wit.Map)
		if err := TypesMatch(g.Key, hm.Key, bound); err != nil {
			return fmt.Errorf("map key: %w", err)
		}
		if err := TypesMatch(g.Value, hm.Value, bound); err != nil {
			return fmt.Errorf("map value: %w", err)
		}
	case *wit.Option:
		return TypesMatch(g.Elem, h.(*wit.Option).Elem, bound)
	case *wit.Record:
		hr := h.(*wit.Record)
		if len(g.Fields) != len(hr.Fields) {
			return mismatch("fields")
		}
		for i, f := range g.Fields {
			if f.Name != hr.Fields[i].Name {
				return mismatch("field names")
			}
			if err := TypesMatch(f.Type, hr.Fields[i].Type, bound); err != nil {
				return fmt.Errorf("field %q: %w", f.Name, err)
			}
		}
	case *wit.Tuple:
		ht := h.(*wit.Tuple)
		if len(g.Types) != len(ht.Types) {
			return mismatch("tuple lengths")
		}
		for i := range g.Types {
			if err := TypesMatch(g.Types[i], ht.Types[i], bound); err != nil {
				return err
			}
		}
	case *wit.Variant:
		hv := h.(*wit.Variant)
		if len(g.Cases) != len(hv.Cases) {
			return mismatch("cases")
		}
		for i, c := range g.Cases {
			if c.Name != hv.Cases[i].Name {
				return mismatch("case names")
			}
			if err := TypesMatch(c.Type, hv.Cases[i].Type, bound); err != nil {
				return fmt.Errorf("case %q: %w", c.Name, err)
			}
		}
	case *wit.Enum:
		if !slices.Equal(g.Cases, h.(*wit.Enum).Cases) {
			return mismatch("enum cases")
		}
	case *wit.Flags:
		if !slices.Equal(g.Names, h.(*wit.Flags).Names) {
			return mismatch("flags")
		}
	case *wit.Result:
		hr := h.(*wit.Result)
		if err := TypesMatch(g.OK, hr.OK, bound); err != nil {
			return fmt.Errorf("ok: %w", err)
		}
		if err := TypesMatch(g.Err, hr.Err, bound); err != nil {
			return fmt.Errorf("error: %w", err)
		}
	case *wit.Own:
		return resourcesMatch(g.Resource, h.(*wit.Own).Resource, bound)
	case *wit.Borrow:
		return resourcesMatch(g.Resource, h.(*wit.Borrow).Resource, bound)
	default:
		return fmt.Errorf("unknown type %T", g)
	}
	return nil
}

func resourcesMatch(g, h *wit.ResourceType, bound map[*wit.ResourceType]*wit.ResourceType) error {
	if b, ok := bound[g]; ok {
		g = b
	}
	if g != h {
		return fmt.Errorf("resource %s is not the host's %s", g.Name, h.Name)
	}
	return nil
}

func describe(t wit.Type) string {
	if t == nil {
		return "nothing"
	}
	if n := wit.NameOf(t); n != "" {
		return n
	}
	return t.Kind().String()
}
