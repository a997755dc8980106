package canon

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

func TestSpilledParams(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	e.bump.log = true
	ts := slices.Repeat([]wit.Type{wit.U8}, 17)
	fn := mustFunc(t, &wit.Func{Params: params(ts...)})
	args := make([]any, 17)
	want := make([]byte, 17)
	for i := range args {
		args[i], want[i] = uint8(i+1), byte(i+1)
	}
	stack, err := fn.LowerArgs(ctx, e.opts, args, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(stack) != 1 || !slices.Equal(e.bump.calls, []reallocCall{{0, 0, 1, 17}}) {
		t.Fatalf("stack %v, realloc %v", stack, e.bump.calls)
	}
	if got := e.bytes(uint32(stack[0]), 17); !bytes.Equal(got, want) {
		t.Errorf("spilled % x", got)
	}
	got, err := fn.LiftArgs(ctx, e.opts, stack)
	if err != nil || !slices.Equal(got, args) {
		t.Errorf("lifted %v, %v", got, err)
	}

	// 16 flat params stay flat.
	fn = mustFunc(t, &wit.Func{Params: params(ts[:16]...)})
	e.bump.reset()
	stack, err = fn.LowerArgs(ctx, e.opts, args[:16], make([]uint64, 0, 32))
	if err != nil || len(stack) != 16 || stack[15] != 16 || len(e.bump.calls) != 0 {
		t.Errorf("flat %v, %v, realloc %v", stack, err, e.bump.calls)
	}
}

func TestSpilledResult(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	fn := mustFunc(t, &wit.Func{Params: params(wit.U32), Result: tup(wit.U16, wit.U64)})
	retptr := e.alloc(t, 8, 16)
	// A wazero host function's stack holds params and results alike.
	stack := []uint64{5, uint64(retptr)}
	v := []any{uint16(0xabcd), uint64(0x0102030405060708)}
	if err := fn.LowerResult(ctx, e.opts, v, stack, stack); err != nil {
		t.Fatal(err)
	}
	want := []byte{0xcd, 0xab, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1}
	if got := e.bytes(retptr, 16); !bytes.Equal(got, want) {
		t.Errorf("stored % x", got)
	}
	got, err := fn.LiftResult(ctx, e.opts, []uint64{uint64(retptr)})
	if err != nil || !equal(fn.Result(), v, got) {
		t.Errorf("lifted %v, %v", got, err)
	}
}

func TestFlatResult(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, UTF8)
	fn := mustFunc(t, &wit.Func{Params: params(wit.String, wit.U8), Result: wit.S64})
	stack, err := fn.LowerArgs(ctx, e.opts, []any{"hi", uint8(3)}, nil)
	if err != nil || len(stack) != 3 {
		t.Fatal(stack, err)
	}
	args, err := fn.LiftArgs(ctx, e.opts, stack)
	if err != nil || args[0] != "hi" || args[1] != uint8(3) {
		t.Fatal(args, err)
	}
	if err := fn.LowerResult(ctx, e.opts, int64(-3), stack, stack); err != nil || stack[0] != 0xfffffffffffffffd {
		t.Fatal(stack, err)
	}
	if got, err := fn.LiftResult(ctx, e.opts, stack); err != nil || got != int64(-3) {
		t.Fatal(got, err)
	}
	none := mustFunc(t, &wit.Func{})
	if got, err := none.LiftResult(ctx, e.opts, nil); got != nil || err != nil {
		t.Fatal(got, err)
	}
	if err := none.LowerResult(ctx, e.opts, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
}
