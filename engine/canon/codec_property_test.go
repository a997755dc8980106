package canon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// randGoType picks a Go type that can represent values of t, covering the
// alternatives the typed path accepts.
func randGoType(r *rand.Rand, t *Type) reflect.Type {
	if r.IntN(12) == 0 {
		return anyType
	}
	switch t.kind {
	case wit.KindBool, wit.KindS8, wit.KindU8, wit.KindS16, wit.KindU16, wit.KindS32, wit.KindU32,
		wit.KindS64, wit.KindU64, wit.KindF32, wit.KindF64, wit.KindChar, wit.KindString:
		return primGoTypes[t.kind]
	case wit.KindEnum:
		us := []reflect.Type{reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](),
			reflect.TypeFor[uint64](), reflect.TypeFor[uint]()}
		for {
			u := us[r.IntN(len(us))]
			if u.Size() >= 8 || uint64(t.n) <= 1<<(8*u.Size()) {
				return u
			}
		}
	case wit.KindFlags:
		return reflect.TypeFor[uint64]()
	case wit.KindList:
		if t.elem.kind == wit.KindU8 && r.IntN(4) > 0 {
			return reflect.TypeFor[[]byte]()
		}
		return reflect.SliceOf(randGoType(r, t.elem))
	case wit.KindRecord, wit.KindTuple:
		fs := make([]reflect.StructField, len(t.fields))
		for i, f := range t.fields {
			fs[i] = reflect.StructField{Name: fmt.Sprint("F", i), Type: randGoType(r, f.t)}
		}
		return reflect.StructOf(fs)
	case wit.KindOption:
		if r.IntN(5) == 0 {
			return optionValueType
		}
		return reflect.PointerTo(randGoType(r, t.cases[1]))
	case wit.KindVariant:
		return variantValueType
	case wit.KindResult:
		return resultValueType
	case wit.KindFixedList:
		return reflect.ArrayOf(int(t.n), randGoType(r, t.elem))
	case wit.KindMap:
		if r.IntN(4) == 0 {
			return reflect.TypeFor[[]wit.MapEntry]()
		}
		k, v := t.elem.fields[0].t, t.elem.fields[1].t
		return reflect.SliceOf(reflect.StructOf([]reflect.StructField{
			{Name: "K", Type: randGoType(r, k)}, {Name: "V", Type: randGoType(r, v)}}))
	}
	return resourceType
}

var primGoTypes = map[wit.Kind]reflect.Type{
	wit.KindBool: reflect.TypeFor[bool](), wit.KindS8: reflect.TypeFor[int8](), wit.KindU8: reflect.TypeFor[uint8](),
	wit.KindS16: reflect.TypeFor[int16](), wit.KindU16: reflect.TypeFor[uint16](),
	wit.KindS32: reflect.TypeFor[int32](), wit.KindU32: reflect.TypeFor[uint32](),
	wit.KindS64: reflect.TypeFor[int64](), wit.KindU64: reflect.TypeFor[uint64](),
	wit.KindF32: reflect.TypeFor[float32](), wit.KindF64: reflect.TypeFor[float64](),
	wit.KindChar: reflect.TypeFor[rune](), wit.KindString: reflect.TypeFor[string](),
}

// toGoValue converts dynamic value v of t to Go type rt (a test-only
// reflection-based converter, independent of the codec).
func toGoValue(t *Type, rt reflect.Type, v any) reflect.Value {
	out := reflect.New(rt).Elem()
	switch {
	case rt == anyType || rt == optionValueType || rt == variantValueType || rt == resultValueType || rt == resourceType:
		out.Set(reflect.ValueOf(v))
		return out
	}
	switch t.kind {
	case wit.KindEnum:
		out.SetUint(uint64(v.(uint32)))
	case wit.KindList:
		if b, ok := v.([]byte); ok && rt.Elem().Kind() == reflect.Uint8 {
			out.Set(reflect.ValueOf(b).Convert(rt))
			break
		}
		if b, ok := v.([]byte); ok { // list<u8> as []any or []any-like
			vs := make([]any, len(b))
			for i, x := range b {
				vs[i] = x
			}
			v = vs
		}
		vs := v.([]any)
		out.Set(reflect.MakeSlice(rt, len(vs), len(vs)))
		for i, x := range vs {
			out.Index(i).Set(toGoValue(t.elem, rt.Elem(), x))
		}
	case wit.KindFixedList:
		for i, x := range v.([]any) {
			out.Index(i).Set(toGoValue(t.elem, rt.Elem(), x))
		}
	case wit.KindMap:
		es := v.([]wit.MapEntry)
		out.Set(reflect.MakeSlice(rt, len(es), len(es)))
		for i, x := range es {
			out.Index(i).Set(toGoValue(t.elem, rt.Elem(), []any{x.Key, x.Value}))
		}
	case wit.KindRecord, wit.KindTuple:
		for i, x := range v.([]any) {
			out.Field(i).Set(toGoValue(t.fields[i].t, rt.Field(i).Type, x))
		}
	case wit.KindOption:
		if o := v.(wit.OptionValue); o.Some {
			p := reflect.New(rt.Elem())
			p.Elem().Set(toGoValue(t.cases[1], rt.Elem(), o.Value))
			out.Set(p)
		}
	default:
		out.Set(reflect.ValueOf(v).Convert(rt))
	}
	return out
}

// fromGoValue converts Go value gv of t back to its dynamic value.
func fromGoValue(t *Type, gv reflect.Value) any {
	rt := gv.Type()
	switch {
	case rt == anyType || rt == optionValueType || rt == variantValueType || rt == resultValueType || rt == resourceType:
		return gv.Interface()
	}
	switch t.kind {
	case wit.KindEnum:
		return uint32(gv.Uint())
	case wit.KindFlags:
		return gv.Uint()
	case wit.KindList:
		if rt.Elem().Kind() == reflect.Uint8 && t.elem.kind == wit.KindU8 {
			return gv.Bytes()
		}
		vs := make([]any, gv.Len())
		for i := range vs {
			vs[i] = fromGoValue(t.elem, gv.Index(i))
		}
		if t.elem.kind == wit.KindU8 {
			b := make([]byte, len(vs))
			for i, x := range vs {
				b[i] = x.(uint8)
			}
			return b
		}
		return vs
	case wit.KindFixedList:
		vs := make([]any, t.n)
		for i := range vs {
			vs[i] = fromGoValue(t.elem, gv.Index(i))
		}
		return vs
	case wit.KindMap:
		es := make([]wit.MapEntry, gv.Len())
		for i := range es {
			kv := fromGoValue(t.elem, gv.Index(i)).([]any)
			es[i] = wit.MapEntry{Key: kv[0], Value: kv[1]}
		}
		return es
	case wit.KindRecord, wit.KindTuple:
		vs := make([]any, len(t.fields))
		for i, f := range t.fields {
			vs[i] = fromGoValue(f.t, gv.Field(i))
		}
		return vs
	case wit.KindOption:
		if gv.IsNil() {
			return wit.None()
		}
		return wit.Some(fromGoValue(t.cases[1], gv.Elem()))
	}
	return gv.Convert(primGoTypes[t.kind]).Interface()
}

// TestCodecRoundTrip is TestRoundTrip across the two paths: random values
// of random types and random matching Go types go typed-lower →
// dynamic-lift and dynamic-lower → typed-lift, through memory, flat
// values, and all four call directions (with a random number of
// parameters so that some spill), in all encodings.
func TestCodecRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	envs := []*env{newEnv(t, UTF8), newEnv(t, UTF16), newEnv(t, Latin1UTF16)}
	for i := range 1000 {
		wt := randType(r, 1+i%4)
		lt := mustType(t, wt)
		gt := randGoType(r, lt)
		cd, err := lt.NewCodec(gt)
		if err != nil {
			t.Fatalf("%s as %s: %v", TypeString(wt), gt, err)
		}
		nparams := 1 + r.IntN(6)
		if r.IntN(3) == 0 {
			nparams = 17
		}
		ps := make([]wit.Type, nparams)
		pfs := make([]reflect.StructField, nparams)
		for j := range ps {
			ps[j] = wt
			pfs[j] = reflect.StructField{Name: fmt.Sprint("P", j), Type: gt}
		}
		pt := gt
		if nparams != 1 {
			pt = reflect.StructOf(pfs)
		}
		fn := mustFunc(t, &wit.Func{Params: params(ps...), Result: wt})
		fc, err := NewFuncCodec(fn, pt, gt)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range envs {
			e.bump.reset()
			v := randValue(r, lt)
			gv := toGoValue(lt, gt, v)
			gp := reflect.New(gt)
			gp.Elem().Set(gv)
			fail := func(what string, got any, err error) {
				t.Helper()
				t.Fatalf("%s %s as %s %s:\nvalue %#v\ngot   %#v\nerr %v", e.opts.Encoding, TypeString(wt), gt, what, v, got, err)
			}
			// lifted lifts into a fresh Go value with lift and returns it
			// as a dynamic value.
			lifted := func(lift func(dst any) error) (any, error) {
				dst := reflect.New(gt)
				if err := lift(dst.Interface()); err != nil {
					return nil, err
				}
				return fromGoValue(lt, dst.Elem()), nil
			}

			p := e.alloc(t, lt.Align(), lt.Size())
			if err := cd.Store(ctx, e.opts, gp.Interface(), p); err != nil {
				fail("typed store", nil, err)
			}
			if got, err := lt.Load(ctx, e.opts, p); err != nil || !equal(lt, v, got) {
				fail("typed store, load", got, err)
			}
			if err := lt.Store(ctx, e.opts, v, p); err != nil {
				fail("store", nil, err)
			}
			if got, err := lifted(func(dst any) error { return cd.Load(ctx, e.opts, p, dst) }); err != nil || !equal(lt, v, got) {
				fail("store, typed load", got, err)
			}

			if tooFlat(lt) {
				if _, err := cd.Lower(ctx, e.opts, gp.Interface(), nil); err == nil {
					fail("typed lower of a value too large to pass flat", nil, nil)
				}
			} else {
				flat, err := cd.Lower(ctx, e.opts, gp.Interface(), nil)
				if err != nil || len(flat) != len(lt.Flat()) {
					fail("typed lower", flat, err)
				}
				if got, err := lt.Lift(ctx, e.opts, flat); err != nil || !equal(lt, v, got) {
					fail("typed lower, lift", got, err)
				}
				if flat, err = lt.Lower(ctx, e.opts, v, nil); err != nil {
					fail("lower", flat, err)
				}
				if got, err := lifted(func(dst any) error { return cd.Lift(ctx, e.opts, flat, dst) }); err != nil || !equal(lt, v, got) {
					fail("lower, typed lift", got, err)
				}
			}

			// Arguments: typed lower → dynamic lift, dynamic lower → typed lift.
			args := make([]any, nparams)
			pv := reflect.New(pt)
			for j := range args {
				args[j] = randValue(r, lt)
				if nparams == 1 {
					pv.Elem().Set(toGoValue(lt, gt, args[j]))
				} else {
					pv.Elem().Field(j).Set(toGoValue(lt, gt, args[j]))
				}
			}
			stack, err := fc.LowerArgs(ctx, e.opts, pv.Interface(), nil)
			if err != nil {
				fail("typed lower args", nil, err)
			}
			got, err := fn.LiftArgs(ctx, e.opts, stack)
			if err != nil {
				fail("typed lower args, lift", nil, err)
			}
			for j := range args {
				if !equal(lt, args[j], got[j]) {
					fail("typed lower args, lift", got[j], nil)
				}
			}
			if stack, err = fn.LowerArgs(ctx, e.opts, args, nil); err != nil {
				fail("lower args", nil, err)
			}
			pv = reflect.New(pt)
			if err := fc.LiftArgs(ctx, e.opts, stack, pv.Interface()); err != nil {
				fail("lower args, typed lift", nil, err)
			}
			for j := range args {
				g := pv.Elem()
				if nparams != 1 {
					g = g.Field(j)
				}
				if got := fromGoValue(lt, g); !equal(lt, args[j], got) {
					fail("lower args, typed lift", got, nil)
				}
			}

			// Result: both ways.
			sig := fn.LowerSignature()
			newCore := func() []uint64 {
				core := make([]uint64, max(len(sig.Params), len(sig.Results)))
				if len(sig.Results) == 0 {
					core[len(core)-1] = uint64(e.alloc(t, lt.Align(), lt.Size()))
				}
				return core
			}
			liftCore := func(core []uint64) []uint64 {
				if len(sig.Results) == 0 {
					return core[len(core)-1:]
				}
				return core
			}
			core := newCore()
			if err := fc.LowerResult(ctx, e.opts, gp.Interface(), core, core); err != nil {
				fail("typed lower result", nil, err)
			}
			if res, err := fn.LiftResult(ctx, e.opts, liftCore(core)); err != nil || !equal(lt, v, res) {
				fail("typed lower result, lift", res, err)
			}
			core = newCore()
			if err := fn.LowerResult(ctx, e.opts, v, core, core); err != nil {
				fail("lower result", nil, err)
			}
			if res, err := lifted(func(dst any) error { return fc.LiftResult(ctx, e.opts, liftCore(core), dst) }); err != nil || !equal(lt, v, res) {
				fail("lower result, typed lift", res, err)
			}
		}
	}
}

func hasHandle(t *Type) bool {
	switch t.kind {
	case wit.KindOwn, wit.KindBorrow:
		return true
	case wit.KindList, wit.KindFixedList, wit.KindMap:
		return hasHandle(t.elem)
	}
	for _, f := range t.fields {
		if hasHandle(f.t) {
			return true
		}
	}
	for _, c := range t.cases {
		if c != nil && hasHandle(c) {
			return true
		}
	}
	return false
}

// TestCodecGuestGarbage feeds both paths the same corrupted memory and
// flat values: the typed path must never panic and must fail exactly when
// the dynamic path does, with the same trap, or lift the same value.
func TestCodecGuestGarbage(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	envs := []*env{newEnv(t, UTF8), newEnv(t, UTF16), newEnv(t, Latin1UTF16)}
	traps := 0
	for i := range 3000 {
		wt := randType(r, 1+i%4)
		lt := mustType(t, wt)
		if hasHandle(lt) {
			continue // lifting an own handle consumes it
		}
		cd, err := lt.NewCodec(randGoType(r, lt))
		if err != nil {
			t.Fatal(err)
		}
		e := envs[i%len(envs)]
		e.bump.reset()
		v := randValue(r, lt)
		p := e.alloc(t, lt.Align(), lt.Size())
		if err := lt.Store(ctx, e.opts, v, p); err != nil {
			t.Fatal(err)
		}
		var flat []uint64
		if !tooFlat(lt) {
			if flat, err = lt.Lower(ctx, e.opts, v, nil); err != nil {
				t.Fatal(err)
			}
		}
		// Corrupt a few bytes of the value and what it points at, and
		// some flat values.
		region := e.bytes(p, e.bump.top-p)
		for range 1 + r.IntN(3) {
			k := r.IntN(len(region))
			switch r.IntN(3) {
			case 0:
				region[k] = byte(r.Uint32())
			case 1:
				region[k] ^= 1 << r.IntN(8)
			default:
				if k+4 <= len(region) {
					put32(region, uint32(k), r.Uint32()>>r.IntN(32))
				}
			}
		}
		for j := range flat {
			if r.IntN(3) == 0 {
				switch r.IntN(3) {
				case 0:
					flat[j] = uint64(r.Uint32())
				case 1:
					flat[j] ^= 1 << r.IntN(32)
				default:
					flat[j] = uint64(r.IntN(4))
				}
			}
		}
		compare := func(what string, want any, wantErr error, lift func(dst any) error) {
			t.Helper()
			dst := reflect.New(cd.GoType())
			err := lift(dst.Interface())
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("%s %s %s: typed error %v, dynamic error %v", e.opts.Encoding, TypeString(wt), what, err, wantErr)
			}
			if err != nil {
				traps++
				if !isTrap(err) {
					t.Fatalf("%s %s %s: %v is not a trap", e.opts.Encoding, TypeString(wt), what, err)
				}
				return
			}
			if got := fromGoValue(lt, dst.Elem()); !equal(lt, want, got) {
				t.Fatalf("%s %s %s: typed %#v, dynamic %#v", e.opts.Encoding, TypeString(wt), what, got, want)
			}
		}
		want, wantErr := lt.Load(ctx, e.opts, p)
		compare("load", want, wantErr, func(dst any) error { return cd.Load(ctx, e.opts, p, dst) })
		if flat != nil {
			want, wantErr = lt.Lift(ctx, e.opts, flat)
			compare("lift", want, wantErr, func(dst any) error { return cd.Lift(ctx, e.opts, flat, dst) })
		}
		// A random pointer.
		q := r.Uint32() >> r.IntN(32)
		want, wantErr = lt.Load(ctx, e.opts, q)
		compare("load at random address", want, wantErr, func(dst any) error { return cd.Load(ctx, e.opts, q, dst) })
	}
	if traps < 500 {
		t.Errorf("only %d traps: the corruption is too gentle", traps)
	}
}
