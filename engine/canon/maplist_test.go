package canon

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/wit"
)

// Fixed-length lists are laid out inline like tuples of their elements;
// maps like the list<tuple<key, value>> they despecialize to. A
// flattening longer than flatLimit is cut after flatLimit+1 values.
func TestMapAndFixedListLayout(t *testing.T) {
	tests := []struct {
		name        string
		t           wit.Type
		size, align uint32
		flat        []api.ValueType
	}{
		{"list<u8, 3>", fixed(wit.U8, 3), 3, 1, []api.ValueType{i32, i32, i32}},
		{"list<u64, 2>", fixed(wit.U64, 2), 16, 8, []api.ValueType{i64, i64}},
		{"list<tuple<u8, u16>, 2>", fixed(tup(wit.U8, wit.U16), 2), 8, 2, []api.ValueType{i32, i32, i32, i32}},
		{"list<string, 2>", fixed(wit.String, 2), 16, 4, []api.ValueType{i32, i32, i32, i32}},
		{"list<list<u8, 2>, 2>", fixed(fixed(wit.U8, 2), 2), 4, 1, []api.ValueType{i32, i32, i32, i32}},
		{"record{u8, list<u32, 1>}", rec("a", wit.U8, "b", fixed(wit.U32, 1)), 8, 4, []api.ValueType{i32, i32}},
		{"option<list<f32, 2>>", opt(fixed(wit.F32, 2)), 12, 4, []api.ValueType{i32, f32t, f32t}},
		{"map<string, u32>", mapOf(wit.String, wit.U32), 8, 4, []api.ValueType{i32, i32}},
		{"map<u8, u64>", mapOf(wit.U8, wit.U64), 8, 4, []api.ValueType{i32, i32}},
		{"list<u8, 2^28-1>", fixed(wit.U8, 1<<28-1), 1<<28 - 1, 1, slices.Repeat([]api.ValueType{i32}, flatLimit+1)},
		{"list<u64, 100>", fixed(wit.U64, 100), 800, 8, slices.Repeat([]api.ValueType{i64}, flatLimit+1)},
		{"record{list<u8, 64>, u8}", rec("a", fixed(wit.U8, 64), "b", wit.U8), 65, 1, slices.Repeat([]api.ValueType{i32}, flatLimit+1)},
		{"option<list<u8, 1000>>", opt(fixed(wit.U8, 1000)), 1001, 1, slices.Repeat([]api.ValueType{i32}, flatLimit+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lt := mustType(t, tt.t)
			if lt.Size() != tt.size || lt.Align() != tt.align || !slices.Equal(lt.Flat(), tt.flat) {
				t.Errorf("size %d align %d flat %v, want %d %d %v", lt.Size(), lt.Align(), lt.Flat(), tt.size, tt.align, tt.flat)
			}
		})
	}
	for _, bad := range []wit.Type{
		fixed(wit.U8, 0),
		fixed(wit.U8, 1<<28),
		fixed(wit.U64, 1<<25),
		fixed(fixed(wit.U8, 1<<14), 1<<14),
		rec("a", fixed(wit.U8, 1<<27), "b", fixed(wit.U8, 1<<27)),
		&wit.Map{Key: wit.String},
	} {
		if _, err := NewType(bad); err == nil {
			t.Errorf("%s: want an error", TypeString(bad))
		}
	}
}

// A parameter whose flattening was cut spills, and its values pass
// through memory; lifting or lowering it flat is refused, not attempted.
func TestFixedListTooFlat(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	big := fixed(wit.U32, 1000)
	fn := mustFunc(t, &wit.Func{Params: params(big), Result: big})
	if sig := fn.LiftSignature(); !slices.Equal(sig.Params, []api.ValueType{i32}) || !slices.Equal(sig.Results, []api.ValueType{i32}) {
		t.Fatalf("signature %v", sig)
	}
	v := make([]any, 1000)
	for i := range v {
		v[i] = uint32(i)
	}
	stack, err := fn.LowerArgs(ctx, e.opts, []any{v}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fn.LiftArgs(ctx, e.opts, stack)
	if err != nil || !equal(fn.Params()[0], v, got[0]) {
		t.Fatalf("args %v, %v", got, err)
	}
	lt := fn.Params()[0]
	if _, err := lt.Lower(ctx, e.opts, v, nil); err == nil {
		t.Error("lowering a list<u32, 1000> flat: want an error")
	}
	if _, err := lt.Lift(ctx, e.opts, make([]uint64, len(lt.Flat()))); err == nil {
		t.Error("lifting a list<u32, 1000> flat: want an error")
	}
}

func TestMapAndFixedListValues(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		t     wit.Type
		v     any
		image []byte // in memory; nil for maps, whose image is a pointer
		flat  []uint64
	}{
		{"list<u8, 3>", fixed(wit.U8, 3), []any{uint8(1), uint8(2), uint8(255)}, []byte{1, 2, 255}, []uint64{1, 2, 255}},
		{"list<s16, 2>", fixed(wit.S16, 2), []any{int16(-1), int16(2)}, []byte{0xff, 0xff, 2, 0}, []uint64{0xffffffff, 2}},
		{"list<tuple<u8, u16>, 2>", fixed(tup(wit.U8, wit.U16), 2), []any{[]any{uint8(1), uint16(0x203)}, []any{uint8(4), uint16(5)}},
			[]byte{1, 0, 3, 2, 4, 0, 5, 0}, []uint64{1, 0x203, 4, 5}},
		{"list<option<u8>, 2>", fixed(opt(wit.U8), 2), []any{wit.Some(uint8(7)), wit.None()}, []byte{1, 7, 0, 0}, []uint64{1, 7, 0, 0}},
		{"list<bool, 1>", fixed(wit.Bool, 1), []any{true}, []byte{1}, []uint64{1}},
		{"map<string, u32>", mapOf(wit.String, wit.U32), []wit.MapEntry{{Key: "a", Value: uint32(1)}, {Key: "a", Value: uint32(2)}}, nil, nil},
		{"map<u8, list<u8>>", mapOf(wit.U8, list(wit.U8)), []wit.MapEntry{{Key: uint8(3), Value: []byte("xy")}}, nil, nil},
		{"empty map", mapOf(wit.Char, wit.Bool), []wit.MapEntry{}, nil, nil},
		{"map<u32, list<char, 2>>", mapOf(wit.U32, fixed(wit.Char, 2)), []wit.MapEntry{{Key: uint32(9), Value: []any{'a', 'é'}}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, UTF8)
			lt := mustType(t, tt.t)
			p := e.alloc(t, 8, 64)
			if err := lt.Store(ctx, e.opts, tt.v, p); err != nil {
				t.Fatal(err)
			}
			if tt.image != nil {
				if got := e.bytes(p, uint32(len(tt.image))); !bytes.Equal(got, tt.image) {
					t.Errorf("image % x, want % x", got, tt.image)
				}
			}
			if got, err := lt.Load(ctx, e.opts, p); err != nil || !equal(lt, tt.v, got) {
				t.Errorf("load: %#v, %v", got, err)
			}
			flat, err := lt.Lower(ctx, e.opts, tt.v, nil)
			if err != nil || (tt.flat != nil && !slices.Equal(flat, tt.flat)) {
				t.Errorf("lower: %#x, %v, want %#x", flat, err, tt.flat)
			}
			if got, err := lt.Lift(ctx, e.opts, flat); err != nil || !equal(lt, tt.v, got) {
				t.Errorf("lift: %#v, %v", got, err)
			}
		})
	}
}

// A map is passed exactly as the list<tuple<key, value>> it despecializes
// to: what one side stores, the other loads, pair for pair.
func TestMapIsListOfPairs(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	keys := []wit.Type{wit.Bool, wit.S8, wit.U16, wit.S32, wit.U64, wit.Char, wit.String}
	e := newEnv(t, UTF8)
	for i := range 300 {
		k, v := keys[r.IntN(len(keys))], randType(r, 1+i%3)
		mt, lt := mustType(t, mapOf(k, v)), mustType(t, list(tup(k, v)))
		if hasHandle(mt) {
			continue
		}
		e.bump.reset()
		m := randValue(r, mt).([]wit.MapEntry)
		pairs := make([]any, len(m))
		for j, x := range m {
			pairs[j] = []any{x.Key, x.Value}
		}
		flat, err := mt.Lower(ctx, e.opts, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := lt.Lift(ctx, e.opts, flat); err != nil || !equal(lt, pairs, got) {
			t.Fatalf("%s lowered, lifted as list: %#v, %v, want %#v", TypeString(mt.WIT()), got, err, pairs)
		}
		if flat, err = lt.Lower(ctx, e.opts, pairs, nil); err != nil {
			t.Fatal(err)
		}
		if got, err := mt.Lift(ctx, e.opts, flat); err != nil || !equal(mt, m, got) {
			t.Fatalf("%s lowered as list, lifted: %#v, %v, want %#v", TypeString(mt.WIT()), got, err, m)
		}
	}
}

// A hostile guest's map is bounded as a list is: its length and pointer
// trap before anything is allocated for it, and what it holds is checked.
func TestMapAndFixedListTraps(t *testing.T) {
	ctx := context.Background()
	lift := func(ty wit.Type, flat ...uint64) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			_, err := mustType(t, ty).Lift(ctx, e.opts, flat)
			return err
		}
	}
	load := func(ty wit.Type, b []byte) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			_, err := mustType(t, ty).Load(ctx, e.opts, e.put(t, 8, b))
			return err
		}
	}
	// pairs lifts a map of one pair stored as b.
	pairs := func(ty wit.Type, b []byte) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			return lift(ty, uint64(e.put(t, 8, b)), 1)(t, e)
		}
	}
	su := mapOf(wit.String, wit.U32)
	tests := []struct {
		name string
		run  func(*testing.T, *env) error
	}{
		{"map out of bounds", func(t *testing.T, e *env) error {
			return lift(su, uint64(e.mem.Size()-8), 2)(t, e)
		}},
		{"map misaligned", lift(su, 2, 1)},
		{"map too long", lift(mapOf(wit.U64, wit.U64), 0, 1<<24)},
		{"map length overflow", lift(mapOf(wit.U64, wit.U64), 0, 1<<31)},
		{"map length 2^32-1", lift(mapOf(wit.U8, wit.U8), 0, 1<<32-1)},
		{"map in memory too long", load(su, []byte{0, 0, 0, 0, 0, 0, 0, 0x10})},
		{"map key invalid char", pairs(mapOf(wit.Char, wit.U8), []byte{0, 0xd8, 0, 0, 1, 0, 0, 0})},
		{"map value bad discriminant", pairs(mapOf(wit.U8, opt(wit.U8)), []byte{1, 9, 0})},
		{"map key string out of bounds", func(t *testing.T, e *env) error {
			p := e.put(t, 4, []byte{0xf0, 0xff, 0xff, 0xff, 100, 0, 0, 0, 1, 0, 0, 0})
			return lift(su, uint64(p), 1)(t, e)
		}},
		{"fixed list invalid char flat", lift(fixed(wit.Char, 2), 'a', 0xd800)},
		{"fixed list bad discriminant", load(fixed(opt(wit.U8), 2), []byte{1, 1, 2, 0})},
		{"fixed list of lists out of bounds", func(t *testing.T, e *env) error {
			return load(fixed(list(wit.U32), 2), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0xff, 0xff, 0xff, 8, 0, 0, 0})(t, e)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run(t, newEnv(t, UTF8))
			if !isTrap(err) {
				t.Errorf("got %v, want a trap", err)
			}
		})
	}
}

// Lifting a map or fixed-length list is charged against the lift budget:
// a map of many pairs whose keys alias one long string, and a large
// fixed-length list of strings, fail with a BudgetError.
func TestMapAndFixedListBudget(t *testing.T) {
	ctx := context.Background()
	const budget = 100_000
	tests := []struct {
		name string
		run  func(*testing.T, *env) error
		fits bool
	}{
		{"map keys aliasing one string", func(t *testing.T, e *env) error {
			buf := e.alloc(t, 1, 1000)
			const n = 1000
			pairs := e.alloc(t, 4, n*12)
			for i := range uint32(n) {
				put32(e.bytes(pairs, n*12), i*12, buf)
				put32(e.bytes(pairs, n*12), i*12+4, 1000)
			}
			_, err := mustType(t, mapOf(wit.String, wit.U32)).Lift(ctx, e.opts, []uint64{uint64(pairs), n})
			return err
		}, false},
		{"map within", func(t *testing.T, e *env) error {
			pairs := e.alloc(t, 4, 100*8)
			_, err := mustType(t, mapOf(wit.U32, wit.U32)).Lift(ctx, e.opts, []uint64{uint64(pairs), 100})
			return err
		}, true},
		{"many-element map", func(t *testing.T, e *env) error {
			pairs := e.alloc(t, 1, 60_000*2)
			_, err := mustType(t, mapOf(wit.U8, wit.U8)).Lift(ctx, e.opts, []uint64{uint64(pairs), 60_000})
			return err
		}, false},
		{"fixed list of aliased strings", func(t *testing.T, e *env) error {
			buf := e.alloc(t, 1, 1000)
			const n = 1000
			p := e.alloc(t, 4, n*8)
			for i := range uint32(n) {
				put32(e.bytes(p, n*8), i*8, buf)
				put32(e.bytes(p, n*8), i*8+4, 1000)
			}
			_, err := mustType(t, fixed(wit.String, n)).Load(ctx, e.opts, p)
			return err
		}, false},
		{"fixed list of bytes", func(t *testing.T, e *env) error {
			p := e.alloc(t, 1, 60_000)
			_, err := mustType(t, fixed(wit.U8, 60_000)).Load(ctx, e.opts, p)
			return err
		}, false},
		{"fixed list within", func(t *testing.T, e *env) error {
			p := e.alloc(t, 1, 100)
			_, err := mustType(t, fixed(wit.U8, 100)).Load(ctx, e.opts, p)
			return err
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, UTF8)
			e.opts.LiftBudget = budget
			err := tt.run(t, e)
			var be *BudgetError
			switch {
			case tt.fits && err != nil:
				t.Error(err)
			case !tt.fits && !errors.As(err, &be):
				t.Errorf("want a BudgetError, got %v", err)
			}
		})
	}
}

func TestMapAndFixedListValueErrors(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	store := func(ty wit.Type, v any) error {
		return mustType(t, ty).Store(ctx, e.opts, v, e.alloc(t, 8, 64))
	}
	lower := func(ty wit.Type, v any) error {
		_, err := mustType(t, ty).Lower(ctx, e.opts, v, nil)
		return err
	}
	tests := []struct {
		name string
		err  error
	}{
		{"fixed list too short", store(fixed(wit.U8, 3), []any{uint8(1)})},
		{"fixed list too long", lower(fixed(wit.U8, 1), []any{uint8(1), uint8(2)})},
		{"[]byte for list<u8, 2>", store(fixed(wit.U8, 2), []byte{1, 2})},
		{"fixed list element", lower(fixed(wit.U32, 2), []any{uint32(1), 2})},
		{"[]any for map", store(mapOf(wit.U8, wit.U8), []any{[]any{uint8(1), uint8(2)}})},
		{"map key type", lower(mapOf(wit.U8, wit.U8), []wit.MapEntry{{Key: 1, Value: uint8(2)}})},
		{"map value type", store(mapOf(wit.String, wit.U8), []wit.MapEntry{{Key: "k", Value: "v"}})},
	}
	for _, tt := range tests {
		if !isValueError(tt.err) {
			t.Errorf("%s: got %v, want a ValueError", tt.name, tt.err)
		}
	}
}

// The typed path takes a fixed-length list as a Go array of its length and
// a map as a slice of two-field structs (or []wit.MapEntry); it lifts what
// the dynamic path lifts, traps where it traps, and is budgeted.
func TestMapAndFixedListCodec(t *testing.T) {
	type pair struct {
		K string
		V uint32
	}
	ok := []struct {
		t  wit.Type
		gt reflect.Type
		v  any // a *T
	}{
		{fixed(wit.U8, 3), reflect.TypeFor[[3]uint8](), &[3]uint8{1, 2, 3}},
		{fixed(wit.String, 2), reflect.TypeFor[[2]string](), &[2]string{"a", "bc"}},
		{fixed(fixed(wit.S16, 2), 2), reflect.TypeFor[[2][2]int16](), &[2][2]int16{{-1, 2}, {3, -4}}},
		{mapOf(wit.String, wit.U32), reflect.TypeFor[[]pair](), &[]pair{{"a", 1}, {"a", 2}, {"b", 3}}},
		{mapOf(wit.String, wit.U32), reflect.TypeFor[[]wit.MapEntry](), &[]wit.MapEntry{{Key: "k", Value: uint32(9)}}},
		{mapOf(wit.U8, fixed(wit.Char, 2)), reflect.TypeFor[[]struct {
			K uint8
			V [2]rune
		}](), &[]struct {
			K uint8
			V [2]rune
		}{{1, [2]rune{'x', 'é'}}}},
	}
	ctx := context.Background()
	for _, tt := range ok {
		t.Run(TypeString(tt.t)+" as "+tt.gt.String(), func(t *testing.T) {
			e := newEnv(t, UTF8)
			lt := mustType(t, tt.t)
			cd, err := lt.NewCodec(tt.gt)
			if err != nil {
				t.Fatal(err)
			}
			flat, err := cd.Lower(ctx, e.opts, tt.v, nil)
			if err != nil {
				t.Fatal(err)
			}
			dst := reflect.New(tt.gt)
			if err := cd.Lift(ctx, e.opts, flat, dst.Interface()); err != nil || !reflect.DeepEqual(dst.Interface(), tt.v) {
				t.Errorf("lift: %#v, %v, want %#v", dst.Elem(), err, tt.v)
			}
			dyn, err := lt.Lift(ctx, e.opts, flat)
			if err != nil || !equal(lt, fromGoValue(lt, reflect.ValueOf(tt.v).Elem()), dyn) {
				t.Errorf("dynamic lift: %#v, %v", dyn, err)
			}
			p := e.alloc(t, lt.Align(), lt.Size())
			if err := cd.Store(ctx, e.opts, tt.v, p); err != nil {
				t.Fatal(err)
			}
			dst = reflect.New(tt.gt)
			if err := cd.Load(ctx, e.opts, p, dst.Interface()); err != nil || !reflect.DeepEqual(dst.Interface(), tt.v) {
				t.Errorf("load: %#v, %v, want %#v", dst.Elem(), err, tt.v)
			}
		})
	}
	bad := []struct {
		t  wit.Type
		gt reflect.Type
	}{
		{fixed(wit.U8, 3), reflect.TypeFor[[2]uint8]()},
		{fixed(wit.U8, 3), reflect.TypeFor[[]uint8]()},
		{fixed(wit.U8, 3), reflect.TypeFor[[3]int8]()},
		{mapOf(wit.String, wit.U32), reflect.TypeFor[[]any]()},
		{mapOf(wit.String, wit.U32), reflect.TypeFor[map[string]uint32]()},
		{mapOf(wit.String, wit.U32), reflect.TypeFor[[]struct{ K, V, W string }]()},
		{mapOf(wit.String, wit.U32), reflect.TypeFor[[]struct {
			K uint32
			V string
		}]()},
	}
	for _, tt := range bad {
		var ce *CodecError
		if _, err := NewCodec(tt.t, tt.gt); !errors.As(err, &ce) {
			t.Errorf("%s as %s: got %v, want a CodecError", TypeString(tt.t), tt.gt, err)
		}
	}

	// A hostile map length traps on both paths with the same message; a
	// long map of small pairs is stopped by the budget.
	e := newEnv(t, UTF8)
	cd, err := NewCodec(mapOf(wit.U64, wit.U64), reflect.TypeFor[[]struct{ K, V uint64 }]())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []uint64{1 << 24, 1 << 31, 1<<32 - 1} {
		_, want := cd.Type().Lift(ctx, e.opts, []uint64{0, n})
		got := cd.Lift(ctx, e.opts, []uint64{0, n}, &[]struct{ K, V uint64 }{})
		if !isTrap(got) || got.Error() != want.Error() {
			t.Errorf("length %d: typed %v, dynamic %v", n, got, want)
		}
	}
	e.opts.LiftBudget = 100_000
	small, err := NewCodec(mapOf(wit.U8, wit.U8), reflect.TypeFor[[]struct{ K, V uint8 }]())
	if err != nil {
		t.Fatal(err)
	}
	var be *BudgetError
	if err := small.Lift(ctx, e.opts, []uint64{uint64(e.alloc(t, 1, 60_000*2)), 60_000}, &[]struct{ K, V uint8 }{}); !errors.As(err, &be) {
		t.Errorf("60000 pairs under a budget of 100000 bytes: %v", err)
	}
}
