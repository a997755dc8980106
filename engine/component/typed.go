package component

import (
	"context"
	"fmt"
	"reflect"

	"github.com/mur-go/mur/engine/wit"
)

// Define is DefineFunc for a plain Go function, so host code reads like Go:
//
//	l.Define("wasi:cli/environment@0.2.12", "get-arguments", typ,
//		func(ctx context.Context, s *component.Store) ([]string, error) { ... })
//
// fn takes (context.Context, *Store) followed by one Go parameter per WIT
// parameter, and returns (R, error), or just error when the function has
// no result. Go types map to WIT types as follows, checked once here:
//
//	bool, integers, floats  the Go kind of the same size (named types too)
//	char                    rune
//	string                  string
//	list<u8>                []byte
//	list<T>                 []T
//	list<T, N>              [N]T
//	map<K, V>               a slice of structs of two exported fields, key
//	                        and value ([]wit.MapEntry holds both as any)
//	record, tuple           struct with one exported field per member, in order
//	option<T>               *T (nil is none)
//	enum                    an unsigned integer type (the case index)
//	flags                   uint64 (bit i is flag i)
//	anything                any, or the wit value type (wit.ResultValue, ...),
//	                        which receive the dynamic value unchanged
func (l *Linker) Define(instance, name string, typ *wit.Func, fn any) error {
	hf, err := HostFuncOf(typ, fn)
	if err != nil {
		return fmt.Errorf("define %s: %w", joinName(instance, name), err)
	}
	return l.DefineFunc(instance, name, typ, hf)
}

var (
	ctxType   = reflect.TypeFor[context.Context]()
	storeType = reflect.TypeFor[*Store]()
	errType   = reflect.TypeFor[error]()
	anyType   = reflect.TypeFor[any]()
)

type toGoFunc func(v any) (reflect.Value, error)
type fromGoFunc func(v reflect.Value) any

// HostFuncOf adapts a Go function to a HostFunc for typ; see Define.
func HostFuncOf(typ *wit.Func, fn any) (HostFunc, error) {
	fv := reflect.ValueOf(fn)
	ft := fv.Type()
	if ft.Kind() != reflect.Func {
		return nil, fmt.Errorf("want a func, got %s", ft)
	}
	if ft.NumIn() != 2+len(typ.Params) || ft.In(0) != ctxType || ft.In(1) != storeType {
		return nil, fmt.Errorf("want func(context.Context, *component.Store, <%d params>), got %s", len(typ.Params), ft)
	}
	wantOut := 1
	if typ.Result != nil {
		wantOut = 2
	}
	if ft.NumOut() != wantOut || ft.Out(wantOut-1) != errType {
		return nil, fmt.Errorf("want %d results ending in error, got %s", wantOut, ft)
	}
	params := make([]toGoFunc, len(typ.Params))
	for i, p := range typ.Params {
		conv, err := toGo(p.Type, ft.In(2+i))
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %w", p.Name, err)
		}
		params[i] = conv
	}
	var result fromGoFunc
	if typ.Result != nil {
		var err error
		if result, err = fromGo(typ.Result, ft.Out(0)); err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
	}
	return func(ctx context.Context, s *Store, args []any) (any, error) {
		in := make([]reflect.Value, 2+len(args))
		in[0], in[1] = reflect.ValueOf(ctx), reflect.ValueOf(s)
		for i, a := range args {
			v, err := params[i](a)
			if err != nil {
				return nil, err
			}
			in[2+i] = v
		}
		out := fv.Call(in)
		if errV := out[len(out)-1]; !errV.IsNil() {
			return nil, errV.Interface().(error)
		}
		if result == nil {
			return nil, nil
		}
		return result(out[0]), nil
	}, nil
}

func isPassThrough(rt reflect.Type) bool {
	switch rt {
	case anyType, reflect.TypeFor[wit.ResultValue](), reflect.TypeFor[wit.OptionValue](),
		reflect.TypeFor[wit.VariantValue](), reflect.TypeFor[wit.Resource]():
		return true
	}
	return false
}

// goKind is the Go kind that carries a WIT primitive.
func goKind(p wit.Prim) reflect.Kind {
	return primGoType(p).Kind()
}

// toGo builds a converter from the dynamic value of t to Go type rt.
func toGo(t wit.Type, rt reflect.Type) (toGoFunc, error) {
	if isPassThrough(rt) {
		return func(v any) (reflect.Value, error) {
			if v == nil {
				return reflect.Zero(rt), nil
			}
			return reflect.ValueOf(v).Convert(rt), nil
		}, nil
	}
	bad := fmt.Errorf("WIT %s cannot be received as Go %s", t.Kind(), rt)
	switch t := t.(type) {
	case wit.Prim:
		if rt.Kind() != goKind(t) {
			return nil, bad
		}
		return func(v any) (reflect.Value, error) { return reflect.ValueOf(v).Convert(rt), nil }, nil
	case *wit.Enum:
		if !isUint(rt) {
			return nil, bad
		}
		return func(v any) (reflect.Value, error) { return reflect.ValueOf(v).Convert(rt), nil }, nil
	case *wit.Flags:
		if rt.Kind() != reflect.Uint64 {
			return nil, bad
		}
		return func(v any) (reflect.Value, error) { return reflect.ValueOf(v).Convert(rt), nil }, nil
	case *wit.List:
		if rt.Kind() != reflect.Slice {
			return nil, bad
		}
		if t.Elem.Kind() == wit.KindU8 && rt.Elem().Kind() == reflect.Uint8 {
			return func(v any) (reflect.Value, error) { return reflect.ValueOf(v).Convert(rt), nil }, nil
		}
		elem, err := toGo(t.Elem, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v any) (reflect.Value, error) {
			src, _ := v.([]any)
			return fill(reflect.MakeSlice(rt, len(src), len(src)), src, elem)
		}, nil
	case *wit.FixedList:
		if rt.Kind() != reflect.Array || rt.Len() != int(t.Len) {
			return nil, bad
		}
		elem, err := toGo(t.Elem, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v any) (reflect.Value, error) {
			src, _ := v.([]any)
			return fill(reflect.New(rt).Elem(), src[:min(len(src), rt.Len())], elem)
		}, nil
	case *wit.Map:
		if rt.Kind() != reflect.Slice || rt.Elem().Kind() != reflect.Struct {
			return nil, bad
		}
		entry, err := toGo(mapPair(t), rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v any) (reflect.Value, error) {
			src, _ := v.([]wit.MapEntry)
			out := reflect.MakeSlice(rt, len(src), len(src))
			for i, e := range src {
				ev, err := entry([]any{e.Key, e.Value})
				if err != nil {
					return reflect.Value{}, err
				}
				out.Index(i).Set(ev)
			}
			return out, nil
		}, nil
	case *wit.Option:
		if rt.Kind() != reflect.Pointer {
			return nil, bad
		}
		elem, err := toGo(t.Elem, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v any) (reflect.Value, error) {
			o, _ := v.(wit.OptionValue)
			if !o.Some {
				return reflect.Zero(rt), nil
			}
			ev, err := elem(o.Value)
			if err != nil {
				return reflect.Value{}, err
			}
			p := reflect.New(rt.Elem())
			p.Elem().Set(ev)
			return p, nil
		}, nil
	case *wit.Record, *wit.Tuple:
		members := memberTypes(t)
		if err := checkStruct(rt, len(members)); err != nil {
			return nil, fmt.Errorf("%w: %v", bad, err)
		}
		fields := make([]toGoFunc, len(members))
		for i, m := range members {
			f, err := toGo(m, rt.Field(i).Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", rt.Field(i).Name, err)
			}
			fields[i] = f
		}
		return func(v any) (reflect.Value, error) {
			src, _ := v.([]any)
			out := reflect.New(rt).Elem()
			for i, f := range fields {
				fv, err := f(src[i])
				if err != nil {
					return reflect.Value{}, err
				}
				out.Field(i).Set(fv)
			}
			return out, nil
		}, nil
	}
	return nil, bad
}

// fromGo builds a converter from Go type rt to the dynamic value of t.
func fromGo(t wit.Type, rt reflect.Type) (fromGoFunc, error) {
	if isPassThrough(rt) {
		return func(v reflect.Value) any { return v.Interface() }, nil
	}
	bad := fmt.Errorf("Go %s cannot be returned as WIT %s", rt, t.Kind())
	switch t := t.(type) {
	case wit.Prim:
		if rt.Kind() != goKind(t) {
			return nil, bad
		}
		canonical := primGoType(t)
		return func(v reflect.Value) any { return v.Convert(canonical).Interface() }, nil
	case *wit.Enum:
		if !isUint(rt) {
			return nil, bad
		}
		return func(v reflect.Value) any { return uint32(v.Uint()) }, nil
	case *wit.Flags:
		if rt.Kind() != reflect.Uint64 {
			return nil, bad
		}
		return func(v reflect.Value) any { return v.Uint() }, nil
	case *wit.List:
		if rt.Kind() != reflect.Slice {
			return nil, bad
		}
		if t.Elem.Kind() == wit.KindU8 && rt.Elem().Kind() == reflect.Uint8 {
			return func(v reflect.Value) any { return v.Bytes() }, nil
		}
		elem, err := fromGo(t.Elem, rt.Elem())
		if err != nil {
			return nil, err
		}
		return anys(elem), nil
	case *wit.FixedList:
		if rt.Kind() != reflect.Array || rt.Len() != int(t.Len) {
			return nil, bad
		}
		elem, err := fromGo(t.Elem, rt.Elem())
		if err != nil {
			return nil, err
		}
		return anys(elem), nil
	case *wit.Map:
		if rt.Kind() != reflect.Slice || rt.Elem().Kind() != reflect.Struct {
			return nil, bad
		}
		entry, err := fromGo(mapPair(t), rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v reflect.Value) any {
			out := make([]wit.MapEntry, v.Len())
			for i := range out {
				kv := entry(v.Index(i)).([]any)
				out[i] = wit.MapEntry{Key: kv[0], Value: kv[1]}
			}
			return out
		}, nil
	case *wit.Option:
		if rt.Kind() != reflect.Pointer {
			return nil, bad
		}
		elem, err := fromGo(t.Elem, rt.Elem())
		if err != nil {
			return nil, err
		}
		return func(v reflect.Value) any {
			if v.IsNil() {
				return wit.None()
			}
			return wit.Some(elem(v.Elem()))
		}, nil
	case *wit.Record, *wit.Tuple:
		members := memberTypes(t)
		if err := checkStruct(rt, len(members)); err != nil {
			return nil, fmt.Errorf("%w: %v", bad, err)
		}
		fields := make([]fromGoFunc, len(members))
		for i, m := range members {
			f, err := fromGo(m, rt.Field(i).Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", rt.Field(i).Name, err)
			}
			fields[i] = f
		}
		return func(v reflect.Value) any {
			out := make([]any, len(fields))
			for i, f := range fields {
				out[i] = f(v.Field(i))
			}
			return out
		}, nil
	}
	return nil, bad
}

// mapPair is the tuple<key, value> a map is passed as a list of.
func mapPair(m *wit.Map) *wit.Tuple { return &wit.Tuple{Types: []wit.Type{m.Key, m.Value}} }

func memberTypes(t wit.Type) []wit.Type {
	if r, ok := t.(*wit.Record); ok {
		ts := make([]wit.Type, len(r.Fields))
		for i, f := range r.Fields {
			ts[i] = f.Type
		}
		return ts
	}
	return t.(*wit.Tuple).Types
}

func checkStruct(rt reflect.Type, n int) error {
	if rt.Kind() != reflect.Struct {
		return fmt.Errorf("not a struct")
	}
	if rt.NumField() != n {
		return fmt.Errorf("struct has %d fields, WIT type has %d", rt.NumField(), n)
	}
	for i := range n {
		if !rt.Field(i).IsExported() {
			return fmt.Errorf("field %s is not exported", rt.Field(i).Name)
		}
	}
	return nil
}

func isUint(rt reflect.Type) bool {
	switch rt.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return true
	}
	return false
}

// primGoType is the Go type of the dynamic value of a primitive.
func primGoType(p wit.Prim) reflect.Type {
	switch p {
	case wit.Bool:
		return reflect.TypeFor[bool]()
	case wit.S8:
		return reflect.TypeFor[int8]()
	case wit.U8:
		return reflect.TypeFor[uint8]()
	case wit.S16:
		return reflect.TypeFor[int16]()
	case wit.U16:
		return reflect.TypeFor[uint16]()
	case wit.S32, wit.Char:
		return reflect.TypeFor[int32]()
	case wit.U32:
		return reflect.TypeFor[uint32]()
	case wit.S64:
		return reflect.TypeFor[int64]()
	case wit.U64:
		return reflect.TypeFor[uint64]()
	case wit.F32:
		return reflect.TypeFor[float32]()
	case wit.F64:
		return reflect.TypeFor[float64]()
	}
	return reflect.TypeFor[string]()
}

// fill sets out's first len(src) elements from src, converted by elem:
// a list's slice or a fixed-length list's array.
func fill(out reflect.Value, src []any, elem func(any) (reflect.Value, error)) (reflect.Value, error) {
	for i, e := range src {
		ev, err := elem(e)
		if err != nil {
			return reflect.Value{}, err
		}
		out.Index(i).Set(ev)
	}
	return out, nil
}

// anys converts a Go slice or array element by element into the []any a
// list or fixed-length list value is.
func anys(elem func(reflect.Value) any) func(reflect.Value) any {
	return func(v reflect.Value) any {
		out := make([]any, v.Len())
		for i := range out {
			out[i] = elem(v.Index(i))
		}
		return out
	}
}
