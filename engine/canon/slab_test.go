package canon

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// The typed lift of a tool-result takes one allocation for all its strings
// (once the arena hint is warm), one for its option payloads and one per
// non-empty list, and the values it hands out stay independent: of the
// next lift, of guest memory, and of each other.
func TestTypedLiftAllocations(t *testing.T) {
	ctx := context.Background()
	tc := newTypedToolCall(t)
	e := newEnv(t, UTF8)
	tc.storeResult(t, ctx, e)
	var first, out toolResultGo
	if err := tc.outC.LiftResult(ctx, e.opts, []uint64{bumpBase}, &first); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		if err := tc.outC.LiftResult(ctx, e.opts, []uint64{bumpBase}, &out); err != nil {
			t.Fatal(err)
		}
	})
	// Strings, the two option payloads, metadata, attachments.
	if allocs > 4 {
		t.Errorf("lifting a tool-result took %v allocations, want at most 4", allocs)
	}
	clear(e.bytes(0, e.mem.Size()))
	if !reflect.DeepEqual(first, tc.result) || !reflect.DeepEqual(out, tc.result) {
		t.Fatalf("lifted values changed with guest memory or a later lift:\n%+v\n%+v", first, out)
	}
	if out.Summary == out.Data || out.Summary == first.Summary {
		t.Fatal("option payloads shared between options or lifts")
	}
	*out.Summary = "changed"
	if *out.Data != *tc.result.Data || *first.Summary != *tc.result.Summary {
		t.Fatal("writing one payload changed another")
	}
}

// A warm arena hint sizes a chunk, it does not pay for it: the strings are
// charged to the lift budget as before.
func TestTypedLiftHintKeepsBudget(t *testing.T) {
	ctx := context.Background()
	tc := newTypedToolCall(t)
	e := newEnv(t, UTF8)
	tc.storeResult(t, ctx, e)
	var out toolResultGo
	if err := tc.outC.LiftResult(ctx, e.opts, []uint64{bumpBase}, &out); err != nil {
		t.Fatal(err)
	}
	e.opts.LiftBudget = 512 // less than the 1 KiB data string
	var be *BudgetError
	if err := tc.outC.LiftResult(ctx, e.opts, []uint64{bumpBase}, &out); !errors.As(err, &be) {
		t.Fatalf("want a BudgetError, got %v", err)
	}
}

// Options of a type that occurs once, inside lists, or inside fixed-length
// lists each get a payload of their own or share a slab, and lift right.
func TestTypedLiftSlabs(t *testing.T) {
	type inner struct {
		A *string
		B *uint32
	}
	type value struct {
		One   *string
		Two   *string
		Fixed [3]*uint32
		List  []inner
	}
	str, num := ptr("s"), ptr(uint32(7))
	v := value{One: str, Two: nil, Fixed: [3]*uint32{num, nil, num}, List: []inner{{str, num}, {nil, nil}, {str, nil}}}
	wt := rec("one", opt(wit.String), "two", opt(wit.String), "fixed", fixed(opt(wit.U32), 3),
		"list", list(rec("a", opt(wit.String), "b", opt(wit.U32))))
	cd, err := NewCodec(wt, reflect.TypeFor[value]())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cd.plan.slabs); n != 2 {
		t.Fatalf("%d slabs, want 2 (the strings and the u32s at fixed places)", n)
	}
	ctx := context.Background()
	e := newEnv(t, UTF8)
	p := uint32(1024)
	if err := cd.Store(ctx, e.opts, &v, p); err != nil {
		t.Fatal(err)
	}
	var got value
	if err := cd.Load(ctx, e.opts, p, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, v) || got.Fixed[0] == got.Fixed[2] || got.List[0].A == got.List[2].A {
		t.Fatalf("got %+v, want %+v with payloads of their own", got, v)
	}
}
