package canon

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

func TestValueImages(t *testing.T) {
	nan32 := math.Float32frombits(0xffc00001)
	nan64 := math.Float64frombits(0xfff0000000000001)
	u8t := wit.Type(wit.U8)
	tests := []struct {
		name  string
		t     wit.Type
		v     any
		image []byte
		flat  []uint64
	}{
		{"bool", wit.Bool, true, []byte{1}, []uint64{1}},
		{"s8", wit.S8, int8(-2), []byte{0xfe}, []uint64{0xfffffffe}},
		{"u8", wit.U8, uint8(200), []byte{200}, []uint64{200}},
		{"s16", wit.S16, int16(-2), []byte{0xfe, 0xff}, []uint64{0xfffffffe}},
		{"u16", wit.U16, uint16(0xbeef), []byte{0xef, 0xbe}, []uint64{0xbeef}},
		{"s32", wit.S32, int32(-5), []byte{0xfb, 0xff, 0xff, 0xff}, []uint64{0xfffffffb}},
		{"u32", wit.U32, uint32(0xdeadbeef), []byte{0xef, 0xbe, 0xad, 0xde}, []uint64{0xdeadbeef}},
		{"s64", wit.S64, int64(-1), bytes.Repeat([]byte{0xff}, 8), []uint64{math.MaxUint64}},
		{"u64", wit.U64, uint64(1) << 63, []byte{0, 0, 0, 0, 0, 0, 0, 0x80}, []uint64{1 << 63}},
		{"f32", wit.F32, float32(1.5), []byte{0, 0, 0xc0, 0x3f}, []uint64{0x3fc00000}},
		{"f32 nan", wit.F32, nan32, []byte{0, 0, 0xc0, 0x7f}, []uint64{0x7fc00000}},
		{"f64 -0", wit.F64, math.Copysign(0, -1), []byte{0, 0, 0, 0, 0, 0, 0, 0x80}, []uint64{1 << 63}},
		{"f64 nan", wit.F64, nan64, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f}, []uint64{0x7ff8000000000000}},
		{"char", wit.Char, 'é', []byte{0xe9, 0, 0, 0}, []uint64{0xe9}},
		{"char astral", wit.Char, '😀', []byte{0x00, 0xf6, 0x01, 0}, []uint64{0x1f600}},
		{"record", rec("a", wit.U8, "b", wit.U32, "c", wit.U16), []any{uint8(0x11), uint32(0x22334455), uint16(0x6677)},
			[]byte{0x11, 0, 0, 0, 0x55, 0x44, 0x33, 0x22, 0x77, 0x66, 0, 0}, []uint64{0x11, 0x22334455, 0x6677}},
		{"tuple", tup(wit.U8, wit.S64), []any{uint8(1), int64(-2)},
			[]byte{1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []uint64{1, 0xfffffffffffffffe}},
		{"variant f32 in i64", vnt("a", nil, "b", wit.F32, "c", wit.U64), wit.VariantValue{Case: 1, Value: float32(1.5)},
			[]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0, 0x3f, 0, 0, 0, 0}, []uint64{1, 0x3fc00000}},
		{"variant no payload", vnt("a", nil, "b", wit.F32, "c", wit.U64), wit.VariantValue{Case: 0},
			make([]byte, 16), []uint64{0, 0}},
		{"variant u64", vnt("a", nil, "b", wit.F32, "c", wit.U64), wit.VariantValue{Case: 2, Value: uint64(math.MaxUint64)},
			[]byte{2, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []uint64{2, math.MaxUint64}},
		{"variant padding", vnt("a", wit.U8, "b", tup(wit.F32, wit.F32)), wit.VariantValue{Case: 0, Value: uint8(9)},
			[]byte{0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0}, []uint64{0, 9, 0}},
		{"enum", enum(3), uint32(2), []byte{2}, []uint64{2}},
		{"enum u16", enum(257), uint32(256), []byte{0, 1}, []uint64{256}},
		{"option some", opt(wit.U32), wit.Some(uint32(7)), []byte{1, 0, 0, 0, 7, 0, 0, 0}, []uint64{1, 7}},
		{"option none", opt(wit.U32), wit.None(), make([]byte, 8), []uint64{0, 0}},
		{"option<option<u8>>", opt(opt(u8t)), wit.Some(wit.Some(uint8(3))), []byte{1, 1, 3}, []uint64{1, 1, 3}},
		{"result err", res(nil, wit.U8), wit.Err(uint8(5)), []byte{1, 5}, []uint64{1, 5}},
		{"result ok", res(nil, nil), wit.Ok(nil), []byte{0}, []uint64{0}},
		{"result<f64,f32> err", res(wit.F64, wit.F32), wit.Err(float32(-2)), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0, 0, 0, 0, 0}, []uint64{1, 0xc0000000}},
		{"flags 3", flags(3), uint64(0b101), []byte{5}, []uint64{5}},
		{"flags 12", flags(12), uint64(0x801), []byte{1, 8}, []uint64{0x801}},
		{"flags 32", flags(32), uint64(0x80000001), []byte{1, 0, 0, 0x80}, []uint64{0x80000001}},
		{"flags 33", flags(33), uint64(1 | 1<<32), []byte{1, 0, 0, 0, 1, 0, 0, 0}, []uint64{1, 1}},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, UTF8)
			lt := mustType(t, tt.t)
			p := e.alloc(t, 8, 64)
			if err := lt.Store(ctx, e.opts, tt.v, p); err != nil {
				t.Fatal(err)
			}
			if got := e.bytes(p, uint32(len(tt.image))); !bytes.Equal(got, tt.image) {
				t.Errorf("image % x, want % x", got, tt.image)
			}
			if got, err := lt.Load(ctx, e.opts, p); err != nil || !equal(lt, tt.v, got) {
				t.Errorf("load: %#v, %v", got, err)
			}
			flat, err := lt.Lower(ctx, e.opts, tt.v, nil)
			if err != nil || !slices.Equal(flat, tt.flat) {
				t.Errorf("lower: %#x, %v, want %#x", flat, err, tt.flat)
			}
			if got, err := lt.Lift(ctx, e.opts, tt.flat); err != nil || !equal(lt, tt.v, got) {
				t.Errorf("lift: %#v, %v", got, err)
			}
		})
	}
}

// Lifting flat values ignores bits above a type's width, wraps an i64
// variant slot to the i32 a case wants, and treats any nonzero as true.
func TestLiftFlatCoercions(t *testing.T) {
	ctx := context.Background()
	opts := &Options{}
	tests := []struct {
		t    wit.Type
		flat []uint64
		want any
	}{
		{wit.Bool, []uint64{2}, true},
		{wit.Bool, []uint64{1 << 32}, false},
		{wit.U8, []uint64{0x1ff}, uint8(0xff)},
		{wit.S8, []uint64{0x80}, int8(-128)},
		{wit.S16, []uint64{0x18000}, int16(-32768)},
		{wit.U32, []uint64{0xffffffff_00000005}, uint32(5)},
		{vnt("a", wit.U32, "b", wit.U64), []uint64{0, 0xffffffff_00000005}, wit.VariantValue{Case: 0, Value: uint32(5)}},
		{vnt("a", wit.F32, "b", wit.F64), []uint64{0, 0xffffffff_3fc00000}, wit.VariantValue{Case: 0, Value: float32(1.5)}},
		{vnt("a", wit.F32, "b", wit.U32), []uint64{0, 0x7fc00001}, wit.VariantValue{Case: 0, Value: float32(math.NaN())}},
		{flags(3), []uint64{0xff}, uint64(7)},
	}
	for _, tt := range tests {
		lt := mustType(t, tt.t)
		got, err := lt.Lift(ctx, opts, tt.flat)
		if err != nil || !equal(lt, tt.want, got) {
			t.Errorf("%s %#x: %#v, %v, want %#v", TypeString(tt.t), tt.flat, got, err, tt.want)
		}
	}
	lt := mustType(t, flags(3))
	if got, _ := lt.Load(ctx, newEnv(t, UTF8).opts, 0); got != uint64(0) {
		t.Errorf("flags load %v", got)
	}
}

func TestResources(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	r := wit.Resource{Type: testResource, Rep: 42}
	ft := mustFunc(t, &wit.Func{
		Params: params(&wit.Own{Resource: testResource}, &wit.Borrow{Resource: testResource}),
		Result: list(&wit.Own{Resource: testResource}),
	})
	flat, err := ft.LowerArgs(ctx, e.opts, []any{r, r}, nil)
	if err != nil {
		t.Fatal(err)
	}
	args, err := ft.LiftArgs(ctx, e.opts, flat)
	if err != nil || args[0] != r || args[1] != r {
		t.Fatalf("args %v, %v", args, err)
	}
	if _, err := ft.LiftArgs(ctx, e.opts, flat); !isTrap(err) {
		t.Errorf("lifting an own handle twice: %v", err)
	}
	retptr := e.alloc(t, 4, 8)
	if err := ft.LowerResult(ctx, e.opts, []any{r, r}, []uint64{0, 0, uint64(retptr)}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := ft.LiftResult(ctx, e.opts, []uint64{uint64(retptr)})
	if err != nil || !equal(ft.Result(), []any{r, r}, got) {
		t.Errorf("result %v, %v", got, err)
	}
	_, err = ft.LowerArgs(ctx, &Options{}, []any{r, r}, nil)
	if err == nil || isTrap(err) || isValueError(err) {
		t.Errorf("no handles: %v", err)
	}
}
