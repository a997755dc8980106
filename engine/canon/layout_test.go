package canon

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/wit"
)

const (
	i32  = api.ValueTypeI32
	i64  = api.ValueTypeI64
	f32t = api.ValueTypeF32
	f64t = api.ValueTypeF64
)

func names(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint("n", i)
	}
	return s
}

var testResource = &wit.ResourceType{Name: "res"}

func TestLayout(t *testing.T) {
	tests := []struct {
		name        string
		t           wit.Type
		size, align uint32
		flat        []api.ValueType
	}{
		{"bool", wit.Bool, 1, 1, []api.ValueType{i32}},
		{"s8", wit.S8, 1, 1, []api.ValueType{i32}},
		{"u16", wit.U16, 2, 2, []api.ValueType{i32}},
		{"s32", wit.S32, 4, 4, []api.ValueType{i32}},
		{"u64", wit.U64, 8, 8, []api.ValueType{i64}},
		{"f32", wit.F32, 4, 4, []api.ValueType{f32t}},
		{"f64", wit.F64, 8, 8, []api.ValueType{f64t}},
		{"char", wit.Char, 4, 4, []api.ValueType{i32}},
		{"string", wit.String, 8, 4, []api.ValueType{i32, i32}},
		{"list<u8>", &wit.List{Elem: wit.U8}, 8, 4, []api.ValueType{i32, i32}},
		{"list<u64>", &wit.List{Elem: wit.U64}, 8, 4, []api.ValueType{i32, i32}},
		{"record{u8,u32,u16}", &wit.Record{Fields: []wit.Field{{Name: "a", Type: wit.U8}, {Name: "b", Type: wit.U32}, {Name: "c", Type: wit.U16}}}, 12, 4, []api.ValueType{i32, i32, i32}},
		{"tuple<u8,u64>", &wit.Tuple{Types: []wit.Type{wit.U8, wit.U64}}, 16, 8, []api.ValueType{i32, i64}},
		{"tuple<u16,u8>", &wit.Tuple{Types: []wit.Type{wit.U16, wit.U8}}, 4, 2, []api.ValueType{i32, i32}},
		{"variant{a,b(f32),c(u64)}", &wit.Variant{Cases: []wit.Case{{Name: "a", Type: nil}, {Name: "b", Type: wit.F32}, {Name: "c", Type: wit.U64}}}, 16, 8, []api.ValueType{i32, i64}},
		{"variant{f32|u32}", &wit.Variant{Cases: []wit.Case{{Name: "a", Type: wit.F32}, {Name: "b", Type: wit.U32}}}, 8, 4, []api.ValueType{i32, i32}},
		{"variant{f32}", &wit.Variant{Cases: []wit.Case{{Name: "a", Type: wit.F32}}}, 8, 4, []api.ValueType{i32, f32t}},
		{"variant{f64|f32}", &wit.Variant{Cases: []wit.Case{{Name: "a", Type: wit.F64}, {Name: "b", Type: wit.F32}}}, 16, 8, []api.ValueType{i32, i64}},
		{"variant{u8|tuple<f32,f32>}", &wit.Variant{Cases: []wit.Case{{Name: "a", Type: wit.U8}, {Name: "b", Type: &wit.Tuple{Types: []wit.Type{wit.F32, wit.F32}}}}}, 12, 4, []api.ValueType{i32, i32, f32t}},
		{"option<string>", &wit.Option{Elem: wit.String}, 12, 4, []api.ValueType{i32, i32, i32}},
		{"option<u8>", &wit.Option{Elem: wit.U8}, 2, 1, []api.ValueType{i32, i32}},
		{"result", &wit.Result{}, 1, 1, []api.ValueType{i32}},
		{"result<_,u8>", &wit.Result{Err: wit.U8}, 2, 1, []api.ValueType{i32, i32}},
		{"result<u64,string>", &wit.Result{OK: wit.U64, Err: wit.String}, 16, 8, []api.ValueType{i32, i64, i32}},
		{"enum 3", &wit.Enum{Cases: names(3)}, 1, 1, []api.ValueType{i32}},
		{"enum 256", &wit.Enum{Cases: names(256)}, 1, 1, []api.ValueType{i32}},
		{"enum 257", &wit.Enum{Cases: names(257)}, 2, 2, []api.ValueType{i32}},
		{"enum 65537", &wit.Enum{Cases: names(65537)}, 4, 4, []api.ValueType{i32}},
		{"variant 257 with u8", &wit.Variant{Cases: append([]wit.Case{{Name: "x", Type: wit.U8}}, make([]wit.Case, 256)...)}, 4, 2, []api.ValueType{i32, i32}},
		{"flags 1", &wit.Flags{Names: names(1)}, 1, 1, []api.ValueType{i32}},
		{"flags 8", &wit.Flags{Names: names(8)}, 1, 1, []api.ValueType{i32}},
		{"flags 9", &wit.Flags{Names: names(9)}, 2, 2, []api.ValueType{i32}},
		{"flags 17", &wit.Flags{Names: names(17)}, 4, 4, []api.ValueType{i32}},
		{"flags 32", &wit.Flags{Names: names(32)}, 4, 4, []api.ValueType{i32}},
		{"flags 33", &wit.Flags{Names: names(33)}, 8, 4, []api.ValueType{i32, i32}},
		{"own", &wit.Own{Resource: testResource}, 4, 4, []api.ValueType{i32}},
		{"borrow", &wit.Borrow{Resource: testResource}, 4, 4, []api.ValueType{i32}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lt := mustType(t, tt.t)
			if lt.Size() != tt.size || lt.Align() != tt.align || !slices.Equal(lt.Flat(), tt.flat) {
				t.Errorf("size %d align %d flat %v, want %d %d %v", lt.Size(), lt.Align(), lt.Flat(), tt.size, tt.align, tt.flat)
			}
		})
	}
}

func TestRecordOffsets(t *testing.T) {
	lt := mustType(t, &wit.Record{Fields: []wit.Field{{Name: "a", Type: wit.U8}, {Name: "b", Type: wit.U64}, {Name: "c", Type: wit.U16}, {Name: "d", Type: wit.String}}})
	var offs []uint32
	for _, f := range lt.fields {
		offs = append(offs, f.offset)
	}
	if !slices.Equal(offs, []uint32{0, 8, 16, 20}) || lt.Size() != 32 || lt.Align() != 8 {
		t.Errorf("offsets %v size %d align %d", offs, lt.Size(), lt.Align())
	}
}

func TestInvalidTypes(t *testing.T) {
	if lt := mustType(t, doubling(24)); lt.Size() != 1<<27 {
		t.Errorf("size %d", lt.Size())
	}
	for name, ty := range map[string]wit.Type{
		"nil":          nil,
		"empty record": &wit.Record{},
		"empty tuple":  &wit.Tuple{},
		"empty enum":   &wit.Enum{},
		"no cases":     &wit.Variant{},
		"flags 0":      &wit.Flags{},
		"flags 65":     &wit.Flags{Names: names(65)},
		"own nil":      &wit.Own{},
		"option nil":   &wit.Option{},
		"nested":       &wit.List{Elem: &wit.Record{}},
		"too large":    doubling(25),
	} {
		if _, err := NewType(ty); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// doubling is tuple<T, T> nested n times around u64: 2^(n+3) bytes.
func doubling(n int) wit.Type {
	t := wit.Type(wit.U64)
	for range n {
		t = &wit.Tuple{Types: []wit.Type{t, t}}
	}
	return t
}

func TestSignatures(t *testing.T) {
	u8s := func(n int) []wit.Param {
		ps := make([]wit.Param, n)
		for i := range ps {
			ps[i] = wit.Param{Name: fmt.Sprint("p", i), Type: wit.U8}
		}
		return ps
	}
	tests := []struct {
		name      string
		f         *wit.Func
		lift, low Signature
	}{
		{"nothing", &wit.Func{}, Signature{}, Signature{}},
		{"(u32, string) -> u64", &wit.Func{Params: []wit.Param{{Name: "a", Type: wit.U32}, {Name: "b", Type: wit.String}}, Result: wit.U64},
			Signature{[]api.ValueType{i32, i32, i32}, []api.ValueType{i64}},
			Signature{[]api.ValueType{i32, i32, i32}, []api.ValueType{i64}}},
		{"16 params", &wit.Func{Params: u8s(16)},
			Signature{Params: slices.Repeat([]api.ValueType{i32}, 16)},
			Signature{Params: slices.Repeat([]api.ValueType{i32}, 16)}},
		{"17 params", &wit.Func{Params: u8s(17)},
			Signature{Params: []api.ValueType{i32}}, Signature{Params: []api.ValueType{i32}}},
		{"-> string", &wit.Func{Params: []wit.Param{{Name: "a", Type: wit.F64}}, Result: wit.String},
			Signature{[]api.ValueType{f64t}, []api.ValueType{i32}},
			Signature{Params: []api.ValueType{f64t, i32}}},
		{"17 params -> option<u8>", &wit.Func{Params: u8s(17), Result: &wit.Option{Elem: wit.U8}},
			Signature{[]api.ValueType{i32}, []api.ValueType{i32}},
			Signature{Params: []api.ValueType{i32, i32}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := mustFunc(t, tt.f)
			eq := func(a, b Signature) bool {
				return slices.Equal(a.Params, b.Params) && slices.Equal(a.Results, b.Results)
			}
			if !eq(fn.LiftSignature(), tt.lift) {
				t.Errorf("lift %v, want %v", fn.LiftSignature(), tt.lift)
			}
			if !eq(fn.LowerSignature(), tt.low) {
				t.Errorf("lower %v, want %v", fn.LowerSignature(), tt.low)
			}
		})
	}
}
