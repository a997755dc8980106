package tools

import (
	"fmt"

	"github.com/mur-go/mur/wit"
)

// funcEqual checks a guest's export type against the contract's, the way
// a typed-func check does: structure, field and case names matter, type
// names do not.
func funcEqual(got, want *wit.Func) error {
	if got == nil {
		return fmt.Errorf("not a function")
	}
	if len(got.Params) != len(want.Params) {
		return fmt.Errorf("type mismatch with parameters: %d, want %d", len(got.Params), len(want.Params))
	}
	for i := range got.Params {
		if err := typeEqual(got.Params[i].Type, want.Params[i].Type); err != nil {
			return fmt.Errorf("type mismatch with parameters: %s: %w", want.Params[i].Name, err)
		}
	}
	if err := typeEqual(got.Result, want.Result); err != nil {
		return fmt.Errorf("type mismatch with results: %w", err)
	}
	return nil
}

func typeEqual(g, w wit.Type) error {
	if g == nil || w == nil {
		if g == nil && w == nil {
			return nil
		}
		return fmt.Errorf("%s vs %s", typeStr(g), typeStr(w))
	}
	if g.Kind() != w.Kind() {
		return fmt.Errorf("%s vs %s", typeStr(g), typeStr(w))
	}
	differ := func() error { return fmt.Errorf("%s vs %s", typeStr(g), typeStr(w)) }
	switch g := g.(type) {
	case *wit.List:
		return typeEqual(g.Elem, w.(*wit.List).Elem)
	case *wit.Option:
		return typeEqual(g.Elem, w.(*wit.Option).Elem)
	case *wit.Result:
		wr := w.(*wit.Result)
		if err := typeEqual(g.OK, wr.OK); err != nil {
			return err
		}
		return typeEqual(g.Err, wr.Err)
	case *wit.Record:
		wr := w.(*wit.Record)
		if len(g.Fields) != len(wr.Fields) {
			return differ()
		}
		for i, f := range g.Fields {
			if f.Name != wr.Fields[i].Name {
				return differ()
			}
			if err := typeEqual(f.Type, wr.Fields[i].Type); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
	case *wit.Tuple:
		wt := w.(*wit.Tuple)
		if len(g.Types) != len(wt.Types) {
			return differ()
		}
		for i := range g.Types {
			if err := typeEqual(g.Types[i], wt.Types[i]); err != nil {
				return err
			}
		}
	case *wit.Enum:
		if fmt.Sprint(g.Cases) != fmt.Sprint(w.(*wit.Enum).Cases) {
			return differ()
		}
	case *wit.Variant:
		wv := w.(*wit.Variant)
		if len(g.Cases) != len(wv.Cases) {
			return differ()
		}
		for i, c := range g.Cases {
			if c.Name != wv.Cases[i].Name {
				return differ()
			}
			if err := typeEqual(c.Type, wv.Cases[i].Type); err != nil {
				return err
			}
		}
	case *wit.Flags:
		if fmt.Sprint(g.Names) != fmt.Sprint(w.(*wit.Flags).Names) {
			return differ()
		}
	case *wit.Own, *wit.Borrow:
		// Murmur's tool contracts have no resources.
		return differ()
	}
	return nil
}

func typeStr(t wit.Type) string {
	if t == nil {
		return "nothing"
	}
	return wit.TypeString(t)
}
