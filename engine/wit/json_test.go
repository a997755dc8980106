package wit

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

var (
	color   = &Enum{Named{"color"}, []string{"red", "green"}}
	perms   = &Flags{Named{"perms"}, []string{"read", "write", "exec"}}
	shape   = &Variant{Named{"shape"}, []Case{{"circle", F64}, {"empty", nil}}}
	outcome = &Result{OK: String, Err: U32}
	bare    = &Result{}
	optOpt  = &Option{Elem: &Option{Elem: U32}}
	pair    = &Tuple{Types: []Type{String, S8}}
	fixed3  = &FixedList{Elem: U8, Len: 3}
	dict    = &Map{Key: String, Value: &Option{Elem: U32}}
)

// roundTrips are values whose JSON form is exactly want, both ways.
var roundTrips = []struct {
	t    Type
	v    any
	want string
}{
	{Bool, true, `true`},
	{S8, int8(-128), `-128`},
	{U8, uint8(255), `255`},
	{S16, int16(-32768), `-32768`},
	{U16, uint16(65535), `65535`},
	{S32, int32(math.MinInt32), `-2147483648`},
	{U32, uint32(math.MaxUint32), `4294967295`},
	{S64, int64(math.MinInt64), `-9223372036854775808`},
	{S64, int64(math.MaxInt64), `9223372036854775807`},
	{U64, uint64(math.MaxUint64), `18446744073709551615`},
	{U64, uint64(1<<53 + 1), `9007199254740993`},
	{F32, float32(0.1), `0.1`},
	{F32, float32(math.Inf(-1)), `"-Infinity"`},
	{F64, 1.5, `1.5`},
	{F64, 1e21, `1e+21`},
	{F64, 1e-7, `1e-07`},
	{F64, math.Inf(1), `"Infinity"`},
	{Char, 'é', `"é"`},
	{Char, rune(0x1F600), `"😀"`},
	{String, "a\"b\\c\n<&>\x01", `"a\"b\\c\n<&>\u0001"`},
	{&List{Elem: U8}, []byte{0, 255}, `[0,255]`},
	{&List{Elem: U8}, []byte{}, `[]`},
	{&List{Elem: String}, []any{"x", "y"}, `["x","y"]`},
	{pair, []any{"a", int8(-1)}, `["a",-1]`},
	{color, uint32(1), `"green"`},
	{perms, uint64(0b101), `["read","exec"]`},
	{perms, uint64(0), `[]`},
	{shape, VariantValue{0, 2.5}, `{"circle":2.5}`},
	{shape, VariantValue{Case: 1}, `{"empty":null}`},
	{outcome, Ok("fine"), `{"ok":"fine"}`},
	{outcome, Err(uint32(7)), `{"err":7}`},
	{bare, Ok(nil), `{"ok":null}`},
	{bare, Err(nil), `{"err":null}`},
	{&Option{Elem: String}, None(), `null`},
	{&Option{Elem: String}, Some("x"), `"x"`},
	{optOpt, None(), `null`},
	{optOpt, Some(None()), `{"some":null}`},
	{optOpt, Some(Some(uint32(3))), `{"some":3}`},
	{&Option{Elem: optOpt}, Some(Some(None())), `{"some":{"some":null}}`},
	{&Result{OK: &Option{Elem: U8}}, Ok(None()), `{"ok":null}`},
	{fixed3, []any{uint8(1), uint8(2), uint8(3)}, `[1,2,3]`},
	{&FixedList{Elem: pair, Len: 1}, []any{[]any{"a", int8(1)}}, `[["a",1]]`},
	{dict, []MapEntry{{"a", Some(uint32(1))}, {"b", None()}, {"a", Some(uint32(2))}}, `[["a",1],["b",null],["a",2]]`},
	{dict, []MapEntry{}, `[]`},
	{&Map{Key: U8, Value: fixed3}, []MapEntry{{uint8(9), []any{uint8(0), uint8(0), uint8(7)}}}, `[[9,[0,0,7]]]`},
	{nil, nil, `null`},
}

func TestJSONRoundTrip(t *testing.T) {
	_, types := toolRun()
	input := types[1].Type
	roundTrips := append(roundTrips, struct {
		t    Type
		v    any
		want string
	}{input, []any{Some("hi"), None()}, `{"data":"hi","log-path":null}`})
	for _, tc := range roundTrips {
		got, err := ToJSON(tc.t, tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("ToJSON(%s, %#v) = %s, %v; want %s", TypeString(tc.t), tc.v, got, err, tc.want)
		}
		back, err := FromJSON(tc.t, []byte(tc.want))
		if err != nil || !reflect.DeepEqual(back, tc.v) {
			t.Errorf("FromJSON(%s, %s) = %#v, %v; want %#v", TypeString(tc.t), tc.want, back, err, tc.v)
		}
	}
}

func TestFromJSONAccepts(t *testing.T) {
	_, types := toolRun()
	input := types[1].Type
	for _, tc := range []struct {
		t    Type
		in   string
		want any
	}{
		{input, `{}`, []any{None(), None()}},
		{input, ` { "log-path" : "l" } `, []any{None(), Some("l")}},
		{U32, `-0`, uint32(0)},
		{F64, `1E2`, 100.0},
		{F32, `1e-50`, float32(0)},
		{perms, `["exec","exec"]`, uint64(0b100)},
		{&Option{Elem: &Record{Fields: []Field{{"a", &Option{Elem: U8}}}}}, `{}`, Some([]any{None()})},
	} {
		got, err := FromJSON(tc.t, []byte(tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FromJSON(%s, %s) = %#v, %v; want %#v", TypeString(tc.t), tc.in, got, err, tc.want)
		}
	}
	nan, err := FromJSON(F64, []byte(`"NaN"`))
	if f, ok := nan.(float64); err != nil || !ok || !math.IsNaN(f) {
		t.Errorf(`FromJSON(f64, "NaN") = %v, %v`, nan, err)
	}
}

func TestFromJSONErrors(t *testing.T) {
	_, types := toolRun()
	input := types[1].Type
	nested := &Record{Named{"outer"}, []Field{{"input", input}, {"items", &List{Elem: pair}}}}
	for _, tc := range []struct {
		t    Type
		in   string
		want string
	}{
		{input, `{"data": 5}`, `$.data: want string, got number`},
		{nested, `{"input": {"data": 5}, "items": []}`, `$.input.data: want string, got number`},
		{nested, `{"input": {}, "items": [["a", 1], ["b", 300]]}`, `$.items[1][1]: 300 is out of range for s8 (-128 to 127)`},
		{nested, `{"input": {}, "items": [["a"]]}`, `$.items[0]: want 2 elements for tuple<string, s8>, got 1`},
		{nested, `{"input": {}, "items": [["a", 1, 2]]}`, `$.items[0]: want 2 elements for tuple<string, s8>, got more`},
		{nested, `{}`, `$: missing fields "input", "items" of record outer`},
		{nested, `{"items": []}`, `$: missing field "input" of record outer`},
		{input, `{"data": null, "extra": 1}`, `$: unknown field "extra"; record tool-input has fields data, log-path`},
		{input, `{"data": null, "data": "x"}`, `$: duplicate key "data"`},
		{input, `[]`, `$: want object for record tool-input, got array`},
		{U8, `-1`, `$: -1 is out of range for u8 (0 to 255)`},
		{U64, `18446744073709551616`, `$: 18446744073709551616 is out of range for u64 (0 to 18446744073709551615)`},
		{S64, `9223372036854775808`, `$: 9223372036854775808 is out of range for s64 (-9223372036854775808 to 9223372036854775807)`},
		{U32, `1.5`, `$: want u32, got 1.5 (integers take no fraction or exponent)`},
		{U32, `1e3`, `$: want u32, got 1e3 (integers take no fraction or exponent)`},
		{U32, `"1"`, `$: want u32, got string`},
		{F32, `1e39`, `$: 1e39 is out of range for f32`},
		{F64, `"nan"`, `$: want f64 (a number, "NaN", "Infinity" or "-Infinity"), got string "nan"`},
		{Char, `"ab"`, `$: want a single character, got "ab"`},
		{Char, `""`, `$: want a single character, got ""`},
		{Bool, `null`, `$: want bool, got null`},
		{color, `"blue"`, `$: unknown case "blue"; enum color has cases red, green`},
		{perms, `["read", "all"]`, `$[1]: unknown flag "all"; flags perms has flags read, write, exec`},
		{perms, `[1]`, `$[0]: want flag name, got number`},
		{shape, `{"square": 1}`, `$: unknown case "square"; variant shape has cases circle, empty`},
		{shape, `{"empty": 1}`, `$.empty: want null, got number`},
		{shape, `{}`, `$: want exactly one key for variant shape, got an empty object`},
		{shape, `{"empty": null, "circle": 1}`, `$: want exactly one key for variant shape, got a second: "circle"`},
		{shape, `"empty"`, `$: want object with one key for variant shape, got string`},
		{outcome, `{"value": 1}`, `$: want the key "ok" or "err", got "value"`},
		{outcome, `{"err": "x"}`, `$.err: want u32, got string`},
		{optOpt, `3`, `$: want object with one key for {"some": value} for option<option<u32>>, got number`},
		{optOpt, `{"none": null}`, `$: want the key "some", got "none"`},
		{&Own{Resource: &ResourceType{Name: "r"}}, `1`, `$: resources cannot be passed as JSON`},
		{&List{Elem: U8}, `[1, 256]`, `$[1]: 256 is out of range for u8 (0 to 255)`},
		{String, ``, `$: invalid JSON: unexpected end of input`},
		{String, `"a" "b"`, `invalid JSON: unexpected data after the value`},
		{&List{Elem: U8}, `[1,`, `$[1]: invalid JSON: unexpected end of input`},
		{input, `{"data" 1}`, `$.data: invalid JSON: invalid character '1' after object key`},
		{nil, `1`, `$: want null, got number`},
		{fixed3, `[1, 2]`, `$: want 3 elements for list<u8, 3>, got 2`},
		{fixed3, `[1, 2, 3, 4]`, `$: want 3 elements for list<u8, 3>, got more`},
		{fixed3, `[1, 2, 300]`, `$[2]: 300 is out of range for u8 (0 to 255)`},
		{fixed3, `{}`, `$: want array for list<u8, 3>, got object`},
		{dict, `{"a": 1}`, `$: want array for map<string, option<u32>>, got object`},
		{dict, `[["a"]]`, `$[0]: want 2 elements for a [key, value] pair of map<string, option<u32>>, got 1`},
		{dict, `[["a", 1, 2]]`, `$[0]: want 2 elements for a [key, value] pair of map<string, option<u32>>, got more`},
		{dict, `[[1, 1]]`, `$[0][0]: want string, got number`},
		{dict, `[["a", "x"]]`, `$[0][1]: want u32, got string`},
	} {
		_, err := FromJSON(tc.t, []byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("FromJSON(%s, %s) error = %v\nwant %s", TypeString(tc.t), tc.in, err, tc.want)
		}
	}
}

func TestToJSONErrors(t *testing.T) {
	rec := &Record{Named{"r"}, []Field{{"xs", &List{Elem: Char}}}}
	for _, tc := range []struct {
		t    Type
		v    any
		want string
	}{
		{U32, 5, `$: int is not a valid value of u32`},
		{U32, uint64(5), `$: uint64 is not a valid value of u32`},
		{rec, []any{[]any{'a', rune(0xD800)}}, `$.xs[1]: char U+D800 is not a Unicode scalar value`},
		{rec, []any{}, `$: []interface {} is not a valid value of record r`},
		{String, "\xff", `$: string is not valid UTF-8`},
		{color, uint32(2), `$: uint32 is not a valid value of enum color`},
		{perms, uint64(8), `$: uint64 is not a valid value of flags perms`},
		{shape, VariantValue{Case: 0, Value: "x"}, `$.circle: string is not a valid value of f64`},
		{&Borrow{Resource: &ResourceType{Name: "r"}}, Resource{}, `$: resources cannot be passed as JSON`},
		{nil, 1, `$: want no value, got int`},
		{fixed3, []any{uint8(1)}, `$: []interface {} is not a valid value of list<u8, 3>`},
		{fixed3, []byte{1, 2, 3}, `$: []uint8 is not a valid value of list<u8, 3>`},
		{dict, []any{}, `$: []interface {} is not a valid value of map<string, option<u32>>`},
		{dict, []MapEntry{{"a", None()}, {1, None()}}, `$[1][0]: int is not a valid value of string`},
	} {
		_, err := ToJSON(tc.t, tc.v)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ToJSON(%s, %#v) error = %v\nwant %s", TypeString(tc.t), tc.v, err, tc.want)
		}
	}
}

func TestArgsFromJSON(t *testing.T) {
	run, _ := toolRun()
	two := []Param{{"name", String}, {"count", &Option{Elem: U32}}}
	for _, tc := range []struct {
		params []Param
		in     string
		want   []any
	}{
		{run.Params, `[{"data":"hello","log-path":null}]`, []any{[]any{Some("hello"), None()}}},
		{run.Params, `{"input":{"data":"hello"}}`, []any{[]any{Some("hello"), None()}}},
		{two, `["a", 3]`, []any{"a", Some(uint32(3))}},
		{two, `{"name": "a"}`, []any{"a", None()}},
		{nil, `[]`, []any{}},
		{nil, `{}`, []any{}},
	} {
		got, err := ArgsFromJSON(tc.params, []byte(tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ArgsFromJSON(%s) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		params []Param
		in     string
		want   string
	}{
		{run.Params, `[{"data":5}]`, `$.input.data: want string, got number`},
		{run.Params, `{"input":{"data":5}}`, `$.input.data: want string, got number`},
		{run.Params, `[]`, `$: want 1 argument (input), got 0`},
		{two, `["a", 1, 2]`, `$: want 2 arguments (name, count), got more`},
		{nil, `[1]`, `$: want no arguments, got more`},
		{two, `{"count": 1}`, `$: missing parameter "name" of the function`},
		{two, `{"name": "a", "size": 1}`, `$: unknown parameter "size"; the function has parameters name, count`},
		{two, `"a"`, `$: want an array of arguments or an object keyed by parameter name, got string`},
		{two, `["a", null] x`, `invalid JSON: unexpected data after the value`},
	} {
		_, err := ArgsFromJSON(tc.params, []byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("ArgsFromJSON(%s) error = %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

// fuzzTypes are the types FuzzFromJSON decodes its input against.
func fuzzTypes() []Type {
	run, _ := toolRun()
	return []Type{
		run.Params[0].Type, run.Result, Bool, S8, U16, S32, U64, S64, F32, F64, Char, String,
		&List{Elem: U8}, &List{Elem: pair}, color, perms, shape, outcome, bare, optOpt,
		&Option{Elem: optOpt}, &Result{OK: optOpt, Err: &List{Elem: shape}},
		fixed3, dict, &Map{Key: Char, Value: &FixedList{Elem: shape, Len: 2}},
	}
}

// FuzzFromJSON checks that decoding never panics and that whatever decodes
// encodes again to JSON that decodes to the same value (compared by its
// encoding, which is canonical: NaN has one spelling).
func FuzzFromJSON(f *testing.F) {
	for i, tc := range roundTrips {
		f.Add(uint8(i), []byte(tc.want))
	}
	f.Add(uint8(0), []byte(`{"data":"hello","log-path":null}`))
	f.Add(uint8(1), []byte(`{"status":"passed","summary":"s","data":null,"data-path":null,"truncated":false,"metadata":[["len","5"]],"attachments":[{"media-type":"text/plain","path":"/a"}]}`))
	f.Add(uint8(20), []byte(`{"some":{"some":7}}`))
	f.Add(uint8(22), []byte(`[1,2,3]`))
	f.Add(uint8(23), []byte(`[["a",1],["a",null]]`))
	f.Add(uint8(24), []byte(`[["x",[{"circle":1},{"empty":null}]]]`))
	types := fuzzTypes()
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		typ := types[int(sel)%len(types)]
		v, err := FromJSON(typ, data)
		if err != nil {
			if !strings.Contains(err.Error(), ": ") && !strings.HasPrefix(err.Error(), "invalid JSON") {
				t.Fatalf("error without a path: %v", err)
			}
			return
		}
		enc, err := ToJSON(typ, v)
		if err != nil {
			t.Fatalf("ToJSON(%s) of decoded %s: %v", TypeString(typ), data, err)
		}
		v2, err := FromJSON(typ, enc)
		if err != nil {
			t.Fatalf("FromJSON(%s) of re-encoded %s: %v", TypeString(typ), enc, err)
		}
		enc2, err := ToJSON(typ, v2)
		if err != nil || string(enc2) != string(enc) {
			t.Fatalf("re-encoding %s gave %s, %v", enc, enc2, err)
		}
	})
}
