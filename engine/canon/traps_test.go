package canon

import (
	"context"
	"errors"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// put writes b at a fresh allocation with the given alignment and returns
// its address.
func (e *env) put(tb testing.TB, align uint32, b []byte) uint32 {
	p := e.alloc(tb, align, uint32(len(b)))
	copy(e.bytes(p, uint32(len(b))), b)
	return p
}

func TestTraps(t *testing.T) {
	ctx := context.Background()
	load := func(ty wit.Type, b []byte) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			_, err := mustType(t, ty).Load(ctx, e.opts, e.put(t, 8, b))
			return err
		}
	}
	lift := func(ty wit.Type, flat ...uint64) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			_, err := mustType(t, ty).Lift(ctx, e.opts, flat)
			return err
		}
	}
	// liftAt lifts a string or list at a copy of b placed at offset off
	// from an 8-aligned address, with the given length.
	liftAt := func(ty wit.Type, b []byte, off uint32, n uint32) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			p := e.put(t, 8, append(make([]byte, off), b...)) + off
			_, err := mustType(t, ty).Lift(ctx, e.opts, []uint64{uint64(p), uint64(n)})
			return err
		}
	}
	spill := &wit.Func{Params: params(tup(wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64, wit.U64)), Result: tup(wit.U32, wit.U32)}
	badRealloc := func(p uint32) func(*testing.T, *env) error {
		return func(t *testing.T, e *env) error {
			e.opts.Encoding = UTF16
			e.opts.Realloc = func(context.Context, uint32, uint32, uint32, uint32) (uint32, error) { return p, nil }
			_, err := mustType(t, wit.String).Lower(ctx, e.opts, "hi", nil)
			return err
		}
	}
	tests := []struct {
		name string
		run  func(*testing.T, *env) error
	}{
		{"misaligned load", func(t *testing.T, e *env) error {
			_, err := mustType(t, wit.U32).Load(ctx, e.opts, 2)
			return err
		}},
		{"load out of bounds", func(t *testing.T, e *env) error {
			_, err := mustType(t, wit.U32).Load(ctx, e.opts, e.mem.Size()-2)
			return err
		}},
		{"load at 2^32-8", func(t *testing.T, e *env) error {
			_, err := mustType(t, wit.U64).Load(ctx, e.opts, 0xfffffff8)
			return err
		}},
		{"misaligned store", func(t *testing.T, e *env) error {
			return mustType(t, wit.U16).Store(ctx, e.opts, uint16(1), 1)
		}},
		{"store out of bounds", func(t *testing.T, e *env) error {
			return mustType(t, wit.U8).Store(ctx, e.opts, uint8(1), e.mem.Size())
		}},
		{"option discriminant 2", load(opt(wit.U8), []byte{2, 0})},
		{"result discriminant 2", load(res(nil, nil), []byte{2})},
		{"enum discriminant", load(enum(3), []byte{3})},
		{"enum u16 discriminant", load(enum(300), []byte{0x2c, 0x01})},
		{"variant discriminant flat", lift(vnt("a", nil, "b", wit.U8), 2, 0)},
		{"enum discriminant flat", lift(enum(3), 3)},
		{"char surrogate", lift(wit.Char, 0xd800)},
		{"char surrogate end", lift(wit.Char, 0xdfff)},
		{"char too large", lift(wit.Char, 0x110000)},
		{"char in memory", load(wit.Char, []byte{0, 0, 0x11, 0})},
		{"nested char", load(list(wit.Char), []byte{16 + 8, 0, 0, 0, 1, 0, 0, 0, 0, 0xd8, 0, 0})},
		{"invalid utf-8", liftAt(wit.String, []byte{'a', 0xff}, 0, 2)},
		{"truncated utf-8", liftAt(wit.String, []byte("€")[:2], 0, 2)},
		{"utf-16 lone high", func(t *testing.T, e *env) error {
			e.opts.Encoding = UTF16
			return liftAt(wit.String, []byte{'a', 0, 0x3d, 0xd8}, 0, 2)(t, e)
		}},
		{"utf-16 lone low", func(t *testing.T, e *env) error {
			e.opts.Encoding = UTF16
			return liftAt(wit.String, []byte{0x00, 0xde, 'a', 0}, 0, 2)(t, e)
		}},
		{"utf-16 high then not low", func(t *testing.T, e *env) error {
			e.opts.Encoding = Latin1UTF16
			return liftAt(wit.String, []byte{0x3d, 0xd8, 'a', 0}, 0, 2|1<<31)(t, e)
		}},
		{"utf-16 misaligned", func(t *testing.T, e *env) error {
			e.opts.Encoding = UTF16
			return liftAt(wit.String, []byte{'a', 0}, 1, 1)(t, e)
		}},
		{"latin1 misaligned", func(t *testing.T, e *env) error {
			e.opts.Encoding = Latin1UTF16
			return liftAt(wit.String, []byte{'a'}, 1, 1)(t, e)
		}},
		{"string out of bounds", func(t *testing.T, e *env) error {
			return lift(wit.String, uint64(e.mem.Size()-1), 2)(t, e)
		}},
		{"string too long", lift(wit.String, 0, 1<<28)},
		{"utf-16 string too long", func(t *testing.T, e *env) error {
			e.opts.Encoding = UTF16
			return lift(wit.String, 0, 1<<27)(t, e)
		}},
		{"list out of bounds", func(t *testing.T, e *env) error {
			return lift(list(wit.U32), uint64(e.mem.Size()-4), 2)(t, e)
		}},
		{"list misaligned", liftAt(list(wit.U32), make([]byte, 8), 2, 1)},
		{"list too long", lift(list(wit.U64), 0, 1<<25)},
		{"list length overflow", lift(list(wit.U64), 0, 1<<31)},
		{"result pointer misaligned", func(t *testing.T, e *env) error {
			_, err := mustFunc(t, &wit.Func{Result: wit.String}).LiftResult(ctx, e.opts, []uint64{2})
			return err
		}},
		{"result pointer out of bounds", func(t *testing.T, e *env) error {
			_, err := mustFunc(t, &wit.Func{Result: wit.String}).LiftResult(ctx, e.opts, []uint64{uint64(e.mem.Size() - 4)})
			return err
		}},
		{"return pointer misaligned", func(t *testing.T, e *env) error {
			return mustFunc(t, &wit.Func{Result: wit.String}).LowerResult(ctx, e.opts, "x", []uint64{6}, nil)
		}},
		{"return pointer out of bounds", func(t *testing.T, e *env) error {
			return mustFunc(t, spill).LowerResult(ctx, e.opts, []any{uint32(1), uint32(2)}, []uint64{0, uint64(e.mem.Size())}, nil)
		}},
		{"spilled params out of bounds", func(t *testing.T, e *env) error {
			_, err := mustFunc(t, spill).LiftArgs(ctx, e.opts, []uint64{uint64(e.mem.Size() - 64)})
			return err
		}},
		{"spilled params misaligned", func(t *testing.T, e *env) error {
			_, err := mustFunc(t, spill).LiftArgs(ctx, e.opts, []uint64{4})
			return err
		}},
		{"realloc misaligned", badRealloc(1)},
		{"realloc out of bounds", badRealloc(0xffffffff)},
		{"unknown handle", lift(&wit.Own{Resource: testResource}, 7)},
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

func TestValueErrors(t *testing.T) {
	ctx := context.Background()
	toolInput := &wit.Func{Params: []wit.Param{{Name: "input", Type: toolInputType()}}}
	fn := mustFunc(t, toolInput)
	e := newEnv(t, UTF8)
	_, err := fn.LowerArgs(ctx, e.opts, []any{[]any{1, wit.None()}}, nil)
	const want = `canon: lower param "input": record field "data": want option<string>, got int`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	store := func(ty wit.Type, v any) error {
		return mustType(t, ty).Store(ctx, e.opts, v, e.alloc(t, 8, 64))
	}
	tests := []struct {
		name string
		err  error
	}{
		{"int for u32", store(wit.U32, 1)},
		{"nil for bool", store(wit.Bool, nil)},
		{"surrogate rune", store(wit.Char, rune(0xd800))},
		{"rune too large", store(wit.Char, rune(0x110000))},
		{"negative rune", store(wit.Char, rune(-1))},
		{"enum index", store(enum(3), uint32(3))},
		{"int for enum", store(enum(3), 3)},
		{"flags bits", store(flags(3), uint64(8))},
		{"invalid utf-8", store(wit.String, "\xff")},
		{"record length", store(rec("a", wit.U8), []any{})},
		{"nested", store(list(opt(wit.U8)), []any{wit.Some(uint8(1)), wit.Some(1)})},
		{"payload for none", store(opt(wit.U8), wit.OptionValue{Value: uint8(1)})},
		{"payload for empty case", store(vnt("a", nil), wit.VariantValue{Value: 1})},
		{"variant case", store(vnt("a", nil), wit.VariantValue{Case: 1})},
		{"[]any for list<u8>", store(list(wit.U8), []any{uint8(1)})},
		{"argument count", func() error { _, err := fn.LowerArgs(ctx, e.opts, nil, nil); return err }()},
		{"result for no result", fn.LowerResult(ctx, e.opts, 1, nil, nil)},
	}
	for _, tt := range tests {
		if !isValueError(tt.err) {
			t.Errorf("%s: got %v, want a ValueError", tt.name, tt.err)
		}
	}
}

func TestMissingOptions(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	var mo missingOption
	st := mustType(t, wit.String)
	if _, err := st.Load(ctx, &Options{}, 0); !errors.As(err, &mo) {
		t.Errorf("load without memory: %v", err)
	}
	if _, err := st.Lift(ctx, &Options{}, []uint64{0, 0}); !errors.As(err, &mo) {
		t.Errorf("lift without memory: %v", err)
	}
	if _, err := st.Lower(ctx, &Options{Memory: e.mem}, "x", nil); !errors.As(err, &mo) {
		t.Errorf("lower without realloc: %v", err)
	}
	if _, err := mustType(t, wit.U32).Lift(ctx, &Options{}, []uint64{1}); err != nil {
		t.Errorf("lift u32 without memory: %v", err)
	}
}
