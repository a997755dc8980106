package canon

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// randType generates a random type of at most the given nesting depth.
func randType(r *rand.Rand, depth int) wit.Type {
	prims := []wit.Type{wit.Bool, wit.S8, wit.U8, wit.S16, wit.U16, wit.S32, wit.U32,
		wit.S64, wit.U64, wit.F32, wit.F64, wit.Char, wit.String}
	k := r.IntN(17)
	if depth > 0 && r.IntN(3) > 0 {
		k = 17 + r.IntN(9)
	}
	switch {
	case k < len(prims):
		return prims[k]
	case k == 13:
		return &wit.Own{Resource: testResource}
	case k == 14:
		return &wit.Borrow{Resource: testResource}
	case k == 15:
		return enum([]int{1, 2, 5, 256, 257}[r.IntN(5)])
	case k == 16:
		return flags([]int{1, 8, 9, 16, 17, 32, 33, 64}[r.IntN(8)])
	case k == 17:
		return list(randType(r, depth-1))
	case k == 18:
		fs := make([]any, 0, 8)
		for i := range 1 + r.IntN(4) {
			fs = append(fs, string(rune('a'+i)), randType(r, depth-1))
		}
		return rec(fs...)
	case k == 19:
		ts := make([]wit.Type, 1+r.IntN(4))
		for i := range ts {
			ts[i] = randType(r, depth-1)
		}
		return tup(ts...)
	case k == 20:
		cs := make([]any, 0, 8)
		for i := range 1 + r.IntN(4) {
			var t wit.Type
			if r.IntN(3) > 0 {
				t = randType(r, depth-1)
			}
			cs = append(cs, string(rune('a'+i)), t)
		}
		return vnt(cs...)
	case k == 21:
		return opt(randType(r, depth-1))
	case k == 22:
		var ok, err wit.Type
		if r.IntN(3) > 0 {
			ok = randType(r, depth-1)
		}
		if r.IntN(3) > 0 {
			err = randType(r, depth-1)
		}
		return res(ok, err)
	case k == 23:
		return fixed(randType(r, depth-1), 1+r.IntN(4))
	case k == 24:
		keys := []wit.Type{wit.Bool, wit.S8, wit.U8, wit.U16, wit.S32, wit.U64, wit.Char, wit.String}
		return mapOf(keys[r.IntN(len(keys))], randType(r, depth-1))
	}
	return list(wit.U8)
}

func randString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(9) {
		switch r.IntN(4) {
		case 0: // a run, to reach the word-at-a-time ASCII paths
			for range 1 + r.IntN(20) {
				b.WriteRune(rune(r.IntN(0x80)))
			}
		case 1:
			b.WriteRune(rune(0x80 + r.IntN(0x80)))
		case 2:
			b.WriteRune(randChar(r, 0x10000))
		default:
			b.WriteRune(randChar(r, 0x110000))
		}
	}
	return b.String()
}

func randChar(r *rand.Rand, limit int) rune {
	for {
		if c := rune(r.IntN(limit)); validChar(uint32(c)) {
			return c
		}
	}
}

func randValue(r *rand.Rand, t *Type) any {
	switch t.kind {
	case wit.KindBool:
		return r.IntN(2) == 1
	case wit.KindS8:
		return int8(r.Uint32())
	case wit.KindU8:
		return uint8(r.Uint32())
	case wit.KindS16:
		return int16(r.Uint32())
	case wit.KindU16:
		return uint16(r.Uint32())
	case wit.KindS32:
		return int32(r.Uint32())
	case wit.KindU32:
		return r.Uint32()
	case wit.KindS64:
		return int64(r.Uint64())
	case wit.KindU64:
		return r.Uint64()
	case wit.KindF32:
		return []float32{math.Float32frombits(r.Uint32() | 0x7f800001), float32(math.Inf(-1)),
			float32(math.Copysign(0, -1)), r.Float32()*1e6 - 5e5}[r.IntN(4)]
	case wit.KindF64:
		return []float64{math.Float64frombits(r.Uint64() | 0x7ff0000000000001), math.Inf(1),
			math.Copysign(0, -1), r.NormFloat64() * 1e300}[r.IntN(4)]
	case wit.KindChar:
		return randChar(r, 0x110000)
	case wit.KindString:
		return randString(r)
	case wit.KindList:
		n := r.IntN(5)
		if t.elem.kind == wit.KindU8 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		}
		vs := make([]any, n)
		for i := range vs {
			vs[i] = randValue(r, t.elem)
		}
		return vs
	case wit.KindFixedList:
		vs := make([]any, t.n)
		for i := range vs {
			vs[i] = randValue(r, t.elem)
		}
		return vs
	case wit.KindMap:
		es := make([]wit.MapEntry, r.IntN(5))
		for i := range es {
			es[i] = wit.MapEntry{Key: randValue(r, t.elem.fields[0].t), Value: randValue(r, t.elem.fields[1].t)}
			if i > 0 && r.IntN(4) == 0 {
				es[i].Key = es[i-1].Key // keys may repeat
			}
		}
		return es
	case wit.KindRecord, wit.KindTuple:
		vs := make([]any, len(t.fields))
		for i, f := range t.fields {
			vs[i] = randValue(r, f.t)
		}
		return vs
	case wit.KindFlags:
		return r.Uint64() & flagMask(t.n)
	case wit.KindOwn, wit.KindBorrow:
		return wit.Resource{Type: t.resource, Rep: r.Uint32()}
	}
	disc := uint32(r.IntN(len(t.cases)))
	var payload any
	if ct := t.cases[disc]; ct != nil {
		payload = randValue(r, ct)
	}
	return variantValue(t, disc, payload)
}

// TestRoundTrip lowers random values of random types and lifts them back:
// through memory, through flat values, and through both call paths (with
// a random number of parameters so that some spill), in all encodings.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	envs := []*env{newEnv(t, UTF8), newEnv(t, UTF16), newEnv(t, Latin1UTF16)}
	for i := range 1000 {
		wt := randType(r, 1+i%4)
		lt := mustType(t, wt)
		nparams := 1 + r.IntN(6)
		if r.IntN(3) == 0 {
			nparams = 17
		}
		ps := make([]wit.Type, nparams)
		for j := range ps {
			ps[j] = wt
		}
		fn := mustFunc(t, &wit.Func{Params: params(ps...), Result: wt})
		for _, e := range envs {
			e.bump.reset()
			v := randValue(r, lt)
			fail := func(what string, got any, err error) {
				t.Helper()
				t.Fatalf("%s %s %s:\nvalue %#v\ngot   %#v\nerr %v", e.opts.Encoding, TypeString(wt), what, v, got, err)
			}

			p := e.alloc(t, lt.Align(), lt.Size())
			if err := lt.Store(ctx, e.opts, v, p); err != nil {
				fail("store", nil, err)
			}
			if got, err := lt.Load(ctx, e.opts, p); err != nil || !equal(lt, v, got) {
				fail("load", got, err)
			}

			if tooFlat(lt) {
				if _, err := lt.Lower(ctx, e.opts, v, nil); err == nil {
					fail("lower of a value too large to pass flat", nil, nil)
				}
			} else {
				flat, err := lt.Lower(ctx, e.opts, v, nil)
				if err != nil || len(flat) != len(lt.Flat()) {
					fail("lower", flat, err)
				}
				if got, err := lt.Lift(ctx, e.opts, flat); err != nil || !equal(lt, v, got) {
					fail("lift", got, err)
				}
			}

			args := make([]any, nparams)
			for j := range args {
				args[j] = randValue(r, lt)
			}
			stack, err := fn.LowerArgs(ctx, e.opts, args, nil)
			if err != nil {
				fail("lower args", nil, err)
			}
			got, err := fn.LiftArgs(ctx, e.opts, stack)
			if err != nil {
				fail("lift args", nil, err)
			}
			for j := range args {
				if !equal(lt, args[j], got[j]) {
					fail("lift args", got[j], nil)
				}
			}

			sig := fn.LowerSignature()
			core := make([]uint64, max(len(sig.Params), len(sig.Results)))
			if len(sig.Results) == 0 {
				core[len(core)-1] = uint64(e.alloc(t, lt.Align(), lt.Size()))
			}
			if err := fn.LowerResult(ctx, e.opts, v, core, core); err != nil {
				fail("lower result", nil, err)
			}
			if len(sig.Results) == 0 {
				core = core[len(core)-1:]
			}
			if res, err := fn.LiftResult(ctx, e.opts, core); err != nil || !equal(lt, v, res) {
				fail("lift result", res, err)
			}
		}
	}
}
