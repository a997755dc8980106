package canon

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// Named Go types, to check that the typed path goes by kind.
type (
	myBool   bool
	myS8     int8
	myU16    uint16
	myS64    int64
	myF32    float32
	myString string
	myByte   uint8
	myBytes  []byte
	myEnum   uint8
	myFlags  uint64
	pair     struct {
		A uint32
		B string
	}
	nested struct {
		Name  *string
		Tags  []string
		Pairs []pair
		Opt   **uint8
		Rec   pair
		Kind  uint16
		Bits  uint64
		Blob  []byte
	}
	unexported struct {
		A uint32
		b string
	}
	withAny struct {
		V   any
		Res wit.ResultValue
		Var wit.VariantValue
		Opt wit.OptionValue
		R   wit.Resource
	}
)

func ptr[T any](v T) *T { return &v }

// TestCodecMappings checks every mapping of the typed path both ways
// against the dynamic path: the Go value lowered typed lifts dynamically as
// dyn, and dyn lowered dynamically lifts typed as the Go value, through
// memory and flat values, in every encoding.
func TestCodecMappings(t *testing.T) {
	ctx := context.Background()
	u8 := uint8(7)
	pu8 := &u8
	tests := []struct {
		name string
		wt   wit.Type
		goV  any // a Go value of the codec's Go type
		dyn  any // its dynamic value
	}{
		{"bool", wit.Bool, true, true},
		{"named bool", wit.Bool, myBool(true), true},
		{"s8", wit.S8, int8(-5), int8(-5)},
		{"named s8", wit.S8, myS8(-128), int8(-128)},
		{"u8", wit.U8, uint8(200), uint8(200)},
		{"s16", wit.S16, int16(-30000), int16(-30000)},
		{"named u16", wit.U16, myU16(65535), uint16(65535)},
		{"s32", wit.S32, int32(math.MinInt32), int32(math.MinInt32)},
		{"u32", wit.U32, uint32(math.MaxUint32), uint32(math.MaxUint32)},
		{"named s64", wit.S64, myS64(math.MinInt64), int64(math.MinInt64)},
		{"u64", wit.U64, uint64(math.MaxUint64), uint64(math.MaxUint64)},
		{"f32", wit.F32, float32(-1.5), float32(-1.5)},
		{"named f32", wit.F32, myF32(math.Inf(1)), float32(math.Inf(1))},
		{"f64", wit.F64, math.Pi, math.Pi},
		{"char", wit.Char, '€', '€'},
		{"char astral", wit.Char, rune(0x1F600), rune(0x1F600)},
		{"string", wit.String, "héllo, 世界 😀", "héllo, 世界 😀"},
		{"named string", wit.String, myString("x"), "x"},
		{"empty string", wit.String, "", ""},
		{"list<u8> []byte", list(wit.U8), []byte{1, 2, 3}, []byte{1, 2, 3}},
		{"list<u8> named", list(wit.U8), myBytes{4, 5}, []byte{4, 5}},
		{"list<u8> []myByte", list(wit.U8), []myByte{6}, []byte{6}},
		{"list<u8> []any", list(wit.U8), []any{uint8(9)}, []byte{9}},
		{"list<u8> empty", list(wit.U8), []byte{}, []byte{}},
		{"list<u32>", list(wit.U32), []uint32{1, 1 << 31}, []any{uint32(1), uint32(1 << 31)}},
		{"list<string>", list(wit.String), []string{"a", "", "ccc"}, []any{"a", "", "ccc"}},
		{"list<list<string>>", list(list(wit.String)), [][]string{{"a"}, {}}, []any{[]any{"a"}, []any{}}},
		{"empty list", list(wit.String), []string{}, []any{}},
		{"record", rec("a", wit.U32, "b", wit.String), pair{1, "x"}, []any{uint32(1), "x"}},
		{"tuple", tup(wit.U32, wit.String), pair{2, "y"}, []any{uint32(2), "y"}},
		{"option some", opt(wit.String), ptr("s"), wit.Some("s")},
		{"option none", opt(wit.String), (*string)(nil), wit.None()},
		{"option<option> some some", opt(opt(wit.U8)), &pu8, wit.Some(wit.Some(uint8(7)))},
		{"option<option> some none", opt(opt(wit.U8)), ptr((*uint8)(nil)), wit.Some(wit.None())},
		{"option<option> none", opt(opt(wit.U8)), (**uint8)(nil), wit.None()},
		{"option<f32>", opt(wit.F32), ptr(float32(2.5)), wit.Some(float32(2.5))},
		{"option<u64>", opt(wit.U64), ptr(uint64(1) << 63), wit.Some(uint64(1) << 63)},
		{"option as OptionValue", opt(wit.U8), wit.Some(uint8(1)), wit.Some(uint8(1))},
		{"enum uint8", enum(3), uint8(2), uint32(2)},
		{"enum named", enum(3), myEnum(1), uint32(1)},
		{"enum uint16 of 300", enum(300), uint16(299), uint32(299)},
		{"enum uint", enum(3), uint(2), uint32(2)},
		{"enum uint64", enum(257), uint64(256), uint32(256)},
		{"flags", flags(3), uint64(5), uint64(5)},
		{"flags named", flags(9), myFlags(0x1ff), uint64(0x1ff)},
		{"flags 40", flags(40), uint64(1)<<39 | 1, uint64(1)<<39 | 1},
		{"own", &wit.Own{Resource: testResource}, wit.Resource{Type: testResource, Rep: 3}, wit.Resource{Type: testResource, Rep: 3}},
		{"borrow", &wit.Borrow{Resource: testResource}, wit.Resource{Type: testResource, Rep: 4}, wit.Resource{Type: testResource, Rep: 4}},
		{"variant any", vnt("a", nil, "b", wit.String), any(wit.VariantValue{Case: 1, Value: "x"}), wit.VariantValue{Case: 1, Value: "x"}},
		{"variant VariantValue", vnt("a", nil, "b", wit.U8), wit.VariantValue{Case: 0}, wit.VariantValue{Case: 0}},
		{"result ResultValue", res(wit.String, nil), wit.Ok("fine"), wit.Ok("fine")},
		{"result err", res(wit.String, wit.U32), wit.Err(uint32(1)), wit.Err(uint32(1))},
		{"record as any", rec("a", wit.U32), any([]any{uint32(5)}), []any{uint32(5)}},
		{"nested", rec(
			"name", opt(wit.String), "tags", list(wit.String),
			"pairs", list(rec("a", wit.U32, "b", wit.String)), "opt", opt(opt(wit.U8)),
			"rec", tup(wit.U32, wit.String), "kind", enum(1000), "bits", flags(64), "blob", list(wit.U8)),
			nested{Name: ptr("n"), Tags: []string{"t1", "t2"}, Pairs: []pair{{1, "p"}, {2, "q"}},
				Opt: &pu8, Rec: pair{3, "r"}, Kind: 999, Bits: math.MaxUint64, Blob: []byte("blob")},
			[]any{wit.Some("n"), []any{"t1", "t2"}, []any{[]any{uint32(1), "p"}, []any{uint32(2), "q"}},
				wit.Some(wit.Some(uint8(7))), []any{uint32(3), "r"}, uint32(999), uint64(math.MaxUint64), []byte("blob")}},
		{"dynamic members", rec("v", list(wit.String), "res", res(nil, wit.String), "var", vnt("x", wit.U8),
			"opt", opt(wit.String), "r", &wit.Own{Resource: testResource}),
			withAny{V: []any{"a"}, Res: wit.Err("e"), Var: wit.VariantValue{Value: uint8(1)}, Opt: wit.Some("o"),
				R: wit.Resource{Type: testResource, Rep: 9}},
			[]any{[]any{"a"}, wit.Err("e"), wit.VariantValue{Value: uint8(1)}, wit.Some("o"), wit.Resource{Type: testResource, Rep: 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gt := reflect.TypeOf(tt.goV)
			if tt.name == "variant any" || tt.name == "record as any" {
				gt = anyType
			}
			cd, err := NewCodec(tt.wt, gt)
			if err != nil {
				t.Fatal(err)
			}
			lt := cd.Type()
			want := reflect.New(gt)
			want.Elem().Set(reflect.ValueOf(tt.goV))
			for _, enc := range []StringEncoding{UTF8, UTF16, Latin1UTF16} {
				e := newEnv(t, enc)
				check := func(what string, got any, err error) {
					t.Helper()
					if err != nil || !equal(lt, tt.dyn, got) {
						t.Fatalf("%s %s: got %#v, %v; want %#v", enc, what, got, err, tt.dyn)
					}
				}
				checkGo := func(what string, got reflect.Value, err error) {
					t.Helper()
					if err != nil || !reflect.DeepEqual(got.Elem().Interface(), want.Elem().Interface()) {
						t.Fatalf("%s %s: got %#v, %v; want %#v", enc, what, got.Elem().Interface(), err, tt.goV)
					}
				}
				// Go → memory → dynamic, both with a *T and a T.
				srcs := []any{want.Interface(), tt.goV}
				if gt == anyType {
					srcs = srcs[:1] // an any can only be passed as *any
				}
				for _, src := range srcs {
					p := e.alloc(t, lt.Align(), lt.Size())
					if err := cd.Store(ctx, e.opts, src, p); err != nil {
						t.Fatalf("%s store: %v", enc, err)
					}
					got, err := lt.Load(ctx, e.opts, p)
					check("typed store, load", got, err)
					flat, err := cd.Lower(ctx, e.opts, src, nil)
					if err != nil {
						t.Fatalf("%s lower: %v", enc, err)
					}
					got, err = lt.Lift(ctx, e.opts, flat)
					check("typed lower, lift", got, err)
				}
				// dynamic → memory → Go.
				p := e.alloc(t, lt.Align(), lt.Size())
				if err := lt.Store(ctx, e.opts, tt.dyn, p); err != nil {
					t.Fatalf("%s store: %v", enc, err)
				}
				got := reflect.New(gt)
				checkGo("store, typed load", got, cd.Load(ctx, e.opts, p, got.Interface()))
				flat, err := lt.Lower(ctx, e.opts, tt.dyn, nil)
				if err != nil {
					t.Fatalf("%s lower: %v", enc, err)
				}
				got = reflect.New(gt)
				checkGo("lower, typed lift", got, cd.Lift(ctx, e.opts, flat, got.Interface()))
			}
		})
	}
}

// TestCodecErrors checks that NewCodec rejects every mismatch and names
// the place and both types.
func TestCodecErrors(t *testing.T) {
	tests := []struct {
		wt   wit.Type
		gt   reflect.Type
		want string
	}{
		{wit.U32, reflect.TypeFor[int32](), "Go int32 cannot represent WIT u32 (want a Go uint32 kind)"},
		{wit.S32, reflect.TypeFor[int](), "Go int cannot represent WIT s32 (want a Go int32 kind)"},
		{wit.Bool, reflect.TypeFor[uint8](), "Go uint8 cannot represent WIT bool"},
		{wit.F64, reflect.TypeFor[float32](), "Go float32 cannot represent WIT f64"},
		{wit.Char, reflect.TypeFor[string](), "Go string cannot represent WIT char (want a Go int32 kind)"},
		{wit.String, reflect.TypeFor[[]byte](), "Go []uint8 cannot represent WIT string (want a Go string kind)"},
		{wit.String, reflect.TypeFor[*string](), "Go *string cannot represent WIT string"},
		{list(wit.U8), reflect.TypeFor[string](), "Go string cannot represent WIT list<u8> (want a slice)"},
		{list(wit.U8), reflect.TypeFor[[]int8](), `list element: Go int8 cannot represent WIT u8`},
		{list(wit.String), reflect.TypeFor[[4]string](), "Go [4]string cannot represent WIT list<string> (want a slice)"},
		{list(list(wit.U32)), reflect.TypeFor[[][]int32](), "list element: list element: Go int32 cannot represent WIT u32"},
		{opt(wit.String), reflect.TypeFor[string](), "Go string cannot represent WIT option<string> (want a pointer (nil is none) or wit.OptionValue)"},
		{opt(wit.String), reflect.TypeFor[*int](), "option payload: Go int cannot represent WIT string"},
		{enum(3), reflect.TypeFor[int](), "Go int cannot represent WIT enum { n0, n1, n2 } (want an unsigned integer kind"},
		{enum(257), reflect.TypeFor[uint8](), "257 cases do not fit in 1 bytes"},
		{flags(3), reflect.TypeFor[uint32](), "Go uint32 cannot represent WIT flags { n0, n1, n2 } (want a uint64 kind)"},
		{rec("a", wit.U32), reflect.TypeFor[uint32](), "Go uint32 cannot represent WIT record { a: u32 } (want a struct)"},
		{rec("a", wit.U32), reflect.TypeFor[pair](), "the struct has 2 fields, the record 1"},
		{rec("a", wit.U32, "b", wit.String), reflect.TypeFor[unexported](), `record field "b" (Go field b): Go canon.unexported cannot represent WIT record { a: u32, b: string } (Go field b is not exported)`},
		{rec("a", wit.U32, "b", wit.U32), reflect.TypeFor[pair](), `record field "b" (Go field B): Go string cannot represent WIT u32 (want a Go uint32 kind)`},
		{tup(wit.U32, wit.U8), reflect.TypeFor[pair](), `tuple element 1 (Go field B): Go string cannot represent WIT u8`},
		{rec("tool-input", rec("data", opt(wit.String))), reflect.TypeFor[struct{ In struct{ Data *[]byte } }](),
			`record field "tool-input" (Go field In): record field "data" (Go field Data): option payload: Go []uint8 cannot represent WIT string`},
		{vnt("a", nil), reflect.TypeFor[uint32](), "want wit.VariantValue or any"},
		{res(nil, nil), reflect.TypeFor[error](), "Go error cannot represent WIT result (want wit.ResultValue or any)"},
		{&wit.Own{Resource: testResource}, reflect.TypeFor[uint32](), "want wit.Resource or any"},
		{rec("a", wit.U8), reflect.TypeFor[wit.ResultValue](), "wit.ResultValue holds only a WIT result"},
		{res(nil, nil), reflect.TypeFor[wit.OptionValue](), "wit.OptionValue holds only a WIT option"},
		{opt(wit.U8), reflect.TypeFor[wit.VariantValue](), "wit.VariantValue holds only a WIT variant"},
		{wit.U32, reflect.TypeFor[wit.Resource](), "wit.Resource holds only own and borrow handles"},
	}
	for _, tt := range tests {
		_, err := NewCodec(tt.wt, tt.gt)
		var ce *CodecError
		if err == nil || !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("WIT %s as Go %s: got %v, want ...%s", TypeString(tt.wt), tt.gt, err, tt.want)
			continue
		}
		// The message starts with both whole types.
		if prefix := "canon: WIT " + TypeString(tt.wt) + " as Go " + tt.gt.String() + ": "; !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("got %q, want prefix %q", err, prefix)
		}
	}
	if _, err := NewCodec(wit.U32, nil); err == nil {
		t.Error("nil Go type accepted")
	}
	if _, err := NewCodec(rec(), reflect.TypeFor[struct{}]()); err == nil {
		t.Error("empty record accepted")
	}
}

// TestCodecValueErrors checks that invalid Go values fail to lower with a
// ValueError that locates them, as on the dynamic path.
func TestCodecValueErrors(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	tests := []struct {
		wt   wit.Type
		v    any
		want string
	}{
		{enum(3), uint8(3), "want enum { n0, n1, n2 }, got case index 3"},
		{flags(3), uint64(8), "want flags { n0, n1, n2 }, got flags 0x8 with bits beyond the 3 flags"},
		{wit.Char, rune(0xd800), "want char, got invalid char 0xd800"},
		{wit.Char, rune(-1), "want char, got invalid char -0x1"},
		{wit.String, "\xff", `want string, got string with invalid UTF-8 "\xff"`},
		{rec("a", wit.U32, "b", wit.String), pair{1, "\xff"}, `record field "b": want string`},
		{list(opt(wit.String)), []*string{nil, ptr("\xff")}, `list element 1: some: want string`},
		{rec("v", res(nil, nil)), struct{ V any }{V: 1}, `record field "v": want result, got int`},
		{wit.U32, uint64(1), "want uint32 or *uint32, got uint64"},
		{wit.U32, nil, "want uint32 or *uint32, got nil"},
	}
	for _, tt := range tests {
		gt := reflect.TypeOf(tt.v)
		if tt.v == nil || tt.want == "want uint32 or *uint32, got uint64" {
			gt = reflect.TypeFor[uint32]()
		}
		cd, err := NewCodec(tt.wt, gt)
		if err != nil {
			t.Fatal(err)
		}
		for _, lower := range []func() error{
			func() error { return cd.Store(ctx, e.opts, tt.v, e.alloc(t, 8, 64)) },
			func() error { _, err := cd.Lower(ctx, e.opts, tt.v, nil); return err },
		} {
			err := lower()
			if !isValueError(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s %#v: got %v, want a ValueError ...%s", TypeString(tt.wt), tt.v, err, tt.want)
			}
		}
	}
	// Lifting needs a non-nil pointer of the codec's type.
	cd, err := NewCodec(wit.U32, reflect.TypeFor[uint32]())
	if err != nil {
		t.Fatal(err)
	}
	for _, dst := range []any{nil, uint32(0), (*uint32)(nil), new(int32)} {
		if err := cd.Lift(ctx, e.opts, []uint64{1}, dst); err == nil {
			t.Errorf("lift into %#v succeeded", dst)
		}
	}
}

// TestCodecTraps runs malformed guest values through the typed path: each
// must trap with the dynamic path's trap.
func TestCodecTraps(t *testing.T) {
	ctx := context.Background()
	type u64x17 struct{ A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q uint64 }
	spill := &wit.Func{Params: params(tup(wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64)), Result: tup(wit.U32, wit.U32)}
	type u32x2 struct{ A, B uint32 }
	codec := func(t *testing.T, wt wit.Type, gt reflect.Type) *Codec {
		cd, err := NewCodec(wt, gt)
		if err != nil {
			t.Fatal(err)
		}
		return cd
	}
	funcCodec := func(t *testing.T, f *wit.Func, p, r reflect.Type) *FuncCodec {
		fc, err := NewFuncCodec(mustFunc(t, f), p, r)
		if err != nil {
			t.Fatal(err)
		}
		return fc
	}
	// both runs op on the dynamic and the typed path; want is the dynamic
	// path's error.
	type both func(t *testing.T, e *env) (dynamic, typed error)
	load := func(wt wit.Type, gt reflect.Type, b []byte) both {
		return func(t *testing.T, e *env) (error, error) {
			p := e.put(t, 8, b)
			_, err := mustType(t, wt).Load(ctx, e.opts, p)
			return err, codec(t, wt, gt).Load(ctx, e.opts, p, reflect.New(gt).Interface())
		}
	}
	loadAt := func(wt wit.Type, gt reflect.Type, p uint32) both {
		return func(t *testing.T, e *env) (error, error) {
			_, err := mustType(t, wt).Load(ctx, e.opts, p)
			return err, codec(t, wt, gt).Load(ctx, e.opts, p, reflect.New(gt).Interface())
		}
	}
	lift := func(wt wit.Type, gt reflect.Type, flat ...uint64) both {
		return func(t *testing.T, e *env) (error, error) {
			_, err := mustType(t, wt).Lift(ctx, e.opts, flat)
			return err, codec(t, wt, gt).Lift(ctx, e.opts, flat, reflect.New(gt).Interface())
		}
	}
	liftAt := func(enc StringEncoding, wt wit.Type, gt reflect.Type, b []byte, off, n uint32) both {
		return func(t *testing.T, e *env) (error, error) {
			e.opts.Encoding = enc
			p := e.put(t, 8, append(make([]byte, off), b...)) + off
			return lift(wt, gt, uint64(p), uint64(n))(t, e)
		}
	}
	str := reflect.TypeFor[string]()
	tests := []struct {
		name string
		run  both
	}{
		{"misaligned load", loadAt(wit.U32, reflect.TypeFor[uint32](), 2)},
		{"load out of bounds", loadAt(wit.U32, reflect.TypeFor[uint32](), 65534)},
		{"load at 2^32-8", loadAt(wit.U64, reflect.TypeFor[uint64](), 0xfffffff8)},
		{"option discriminant 2", load(opt(wit.U8), reflect.TypeFor[*uint8](), []byte{2, 0})},
		{"option discriminant flat", lift(opt(wit.U8), reflect.TypeFor[*uint8](), 2, 0)},
		{"enum discriminant", load(enum(3), reflect.TypeFor[uint8](), []byte{3})},
		{"enum u16 discriminant", load(enum(300), reflect.TypeFor[uint16](), []byte{0x2c, 0x01})},
		{"enum discriminant flat", lift(enum(3), reflect.TypeFor[uint32](), 3)},
		{"variant discriminant in record", load(rec("v", vnt("a", nil, "b", wit.U8)), reflect.TypeFor[struct{ V any }](), []byte{2, 0})},
		{"char surrogate", lift(wit.Char, reflect.TypeFor[rune](), 0xd800)},
		{"char too large", lift(wit.Char, reflect.TypeFor[rune](), 0x110000)},
		{"char in memory", load(wit.Char, reflect.TypeFor[rune](), []byte{0, 0, 0x11, 0})},
		{"nested char", load(list(wit.Char), reflect.TypeFor[[]rune](), []byte{16 + 8, 0, 0, 0, 1, 0, 0, 0, 0, 0xd8, 0, 0})},
		{"invalid utf-8", liftAt(UTF8, wit.String, str, []byte{'a', 0xff}, 0, 2)},
		{"truncated utf-8", liftAt(UTF8, wit.String, str, []byte("€")[:2], 0, 2)},
		{"utf-16 lone high", liftAt(UTF16, wit.String, str, []byte{'a', 0, 0x3d, 0xd8}, 0, 2)},
		{"utf-16 lone low", liftAt(UTF16, wit.String, str, []byte{0x00, 0xde, 'a', 0}, 0, 2)},
		{"utf-16 high then not low", liftAt(Latin1UTF16, wit.String, str, []byte{0x3d, 0xd8, 'a', 0}, 0, 2|1<<31)},
		{"utf-16 misaligned", liftAt(UTF16, wit.String, str, []byte{'a', 0}, 1, 1)},
		{"latin1 misaligned", liftAt(Latin1UTF16, wit.String, str, []byte{'a'}, 1, 1)},
		{"string out of bounds", lift(wit.String, str, 65535, 2)},
		{"string too long", lift(wit.String, str, 0, 1<<28)},
		{"list out of bounds", lift(list(wit.U32), reflect.TypeFor[[]uint32](), 65532, 2)},
		{"bytes out of bounds", lift(list(wit.U8), reflect.TypeFor[[]byte](), 65532, 5)},
		{"list misaligned", liftAt(UTF8, list(wit.U32), reflect.TypeFor[[]uint32](), make([]byte, 8), 2, 1)},
		{"list too long", lift(list(wit.U64), reflect.TypeFor[[]uint64](), 0, 1<<25)},
		{"list length overflow", lift(list(wit.U64), reflect.TypeFor[[]uint64](), 0, 1<<31)},
		{"string in option in list", load(list(opt(wit.String)), reflect.TypeFor[[]*string](),
			[]byte{16 + 8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0})},
		{"result pointer misaligned", func(t *testing.T, e *env) (error, error) {
			f := &wit.Func{Result: wit.String}
			_, err := mustFunc(t, f).LiftResult(ctx, e.opts, []uint64{2})
			return err, funcCodec(t, f, nil, str).LiftResult(ctx, e.opts, []uint64{2}, new(string))
		}},
		{"result pointer out of bounds", func(t *testing.T, e *env) (error, error) {
			f := &wit.Func{Result: wit.String}
			_, err := mustFunc(t, f).LiftResult(ctx, e.opts, []uint64{65532})
			return err, funcCodec(t, f, nil, str).LiftResult(ctx, e.opts, []uint64{65532}, new(string))
		}},
		{"return pointer misaligned", func(t *testing.T, e *env) (error, error) {
			f := &wit.Func{Result: wit.String}
			err := mustFunc(t, f).LowerResult(ctx, e.opts, "x", []uint64{6}, nil)
			return err, funcCodec(t, f, nil, str).LowerResult(ctx, e.opts, ptr("x"), []uint64{6}, nil)
		}},
		{"return pointer out of bounds", func(t *testing.T, e *env) (error, error) {
			core := []uint64{0, 65536}
			err := mustFunc(t, spill).LowerResult(ctx, e.opts, []any{uint32(1), uint32(2)}, core, nil)
			fc := funcCodec(t, spill, reflect.TypeFor[u64x17](), reflect.TypeFor[u32x2]())
			return err, fc.LowerResult(ctx, e.opts, &u32x2{1, 2}, core, nil)
		}},
		{"spilled params out of bounds", func(t *testing.T, e *env) (error, error) {
			_, err := mustFunc(t, spill).LiftArgs(ctx, e.opts, []uint64{65536 - 64})
			fc := funcCodec(t, spill, reflect.TypeFor[u64x17](), reflect.TypeFor[u32x2]())
			return err, fc.LiftArgs(ctx, e.opts, []uint64{65536 - 64}, new(u64x17))
		}},
		{"spilled params misaligned", func(t *testing.T, e *env) (error, error) {
			_, err := mustFunc(t, spill).LiftArgs(ctx, e.opts, []uint64{4})
			fc := funcCodec(t, spill, reflect.TypeFor[u64x17](), reflect.TypeFor[u32x2]())
			return err, fc.LiftArgs(ctx, e.opts, []uint64{4}, new(u64x17))
		}},
		{"realloc misaligned", func(t *testing.T, e *env) (error, error) {
			e.opts.Encoding = UTF16
			e.opts.Realloc = func(context.Context, uint32, uint32, uint32, uint32) (uint32, error) { return 1, nil }
			_, err := mustType(t, wit.String).Lower(ctx, e.opts, "hi", nil)
			_, err2 := codec(t, wit.String, str).Lower(ctx, e.opts, ptr("hi"), nil)
			return err, err2
		}},
		{"realloc out of bounds", func(t *testing.T, e *env) (error, error) {
			e.opts.Realloc = func(context.Context, uint32, uint32, uint32, uint32) (uint32, error) { return 0xffffffff, nil }
			_, err := mustType(t, list(wit.U16)).Lower(ctx, e.opts, []any{uint16(1)}, nil)
			_, err2 := codec(t, list(wit.U16), reflect.TypeFor[[]uint16]()).Lower(ctx, e.opts, &[]uint16{1}, nil)
			return err, err2
		}},
		{"unknown handle", lift(&wit.Own{Resource: testResource}, resourceType, 7)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dyn, typed := tt.run(t, newEnv(t, UTF8))
			if !isTrap(dyn) || !isTrap(typed) || dyn.Error() != typed.Error() {
				t.Errorf("typed %v, dynamic %v: want the same trap", typed, dyn)
			}
		})
	}
}
