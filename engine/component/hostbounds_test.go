package component_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// liftBomb instantiates engine-lift-bomb into a store with a memory limit
// of limit bytes; take is its host sink.
func liftBomb(t *testing.T, limit uint64, take func(items []string) error) *component.Instance {
	t.Helper()
	l := component.NewLinker()
	typ := &wit.Func{Params: []wit.Param{{Name: "items", Type: &wit.List{Elem: wit.String}}}}
	if err := l.Define("test:host/sink@0.1.0", "take", typ, func(ctx context.Context, s *component.Store, items []string) error {
		return take(items)
	}); err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(t.Context(), compile(t, newEngine(t), "engine-lift-bomb"), &component.Store{Limits: component.Limits{MaxMemoryBytes: limit}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst
}

// allocated returns the bytes the Go heap allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A hostile guest returns (or passes to the host) a value that is small in
// its memory but huge on the host: 1,000 strings aliasing one 100 KB
// buffer (100 MB once copied), or 300,000 one-byte bools each boxed in an
// any. Lifting must stop at the store's memory limit with a LimitError,
// having allocated about that much, and poison the store.
func TestLiftBombStopsAtMemoryLimit(t *testing.T) {
	const limit = 1 << 20
	type strs = struct{ N, Len uint32 }
	cases := []struct {
		name string
		call func(t *testing.T, inst *component.Instance) error
	}{
		{"aliased strings, dynamic", func(t *testing.T, inst *component.Instance) error {
			_, err := call(t, inst, "strings", uint32(1000), uint32(100_000))
			return err
		}},
		{"aliased strings, typed", func(t *testing.T, inst *component.Instance) error {
			f, err := inst.Func("strings")
			if err != nil {
				t.Fatal(err)
			}
			typed, err := component.TypedFunc[strs, []string](f)
			if err != nil {
				t.Fatal(err)
			}
			_, err = typed.Call(t.Context(), strs{1000, 100_000})
			return err
		}},
		{"boxed bools", func(t *testing.T, inst *component.Instance) error {
			_, err := call(t, inst, "bools", uint32(300_000))
			return err
		}},
		{"aliased strings passed to the host", func(t *testing.T, inst *component.Instance) error {
			_, err := call(t, inst, "send", uint32(1000), uint32(100_000))
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			taken := false
			inst := liftBomb(t, limit, func([]string) error { taken = true; return nil })
			var err error
			n := allocated(func() { err = tc.call(t, inst) })
			var le *component.LimitError
			if !errors.As(err, &le) || le.Limit != component.LimitLiftedBytes || le.Max != limit {
				t.Fatalf("want a %q LimitError with max %d, got %v", component.LimitLiftedBytes, limit, err)
			}
			if want := "bytes of host memory"; !strings.Contains(err.Error(), want) {
				t.Errorf("wording: %v", err)
			}
			if taken {
				t.Error("the host function ran with the over-budget value")
			}
			// The old code copied every string: 100 MB. Loose bound for
			// the engine's own allocations besides the budget.
			if n > 8*limit {
				t.Errorf("lifting allocated %d bytes, want about the %d-byte limit", n, limit)
			}
			if _, err := call(t, inst, "bools", uint32(1)); !errors.Is(err, component.ErrPoisoned) {
				t.Errorf("the store is not poisoned after the limit: %v", err)
			}
		})
	}
}

// Values within the budget lift as before, aliasing or not.
func TestLiftWithinMemoryLimit(t *testing.T) {
	var got []string
	inst := liftBomb(t, 1<<20, func(items []string) error { got = items; return nil })
	v, err := call(t, inst, "strings", uint32(10), uint32(1000))
	if err != nil {
		t.Fatal(err)
	}
	if vs, _ := v.([]any); len(vs) != 10 || len(vs[9].(string)) != 1000 {
		t.Fatalf("strings: %#v", v)
	}
	if _, err := call(t, inst, "send", uint32(10), uint32(1000)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 || len(got[0]) != 1000 {
		t.Fatalf("the host got %d strings", len(got))
	}
}

// A guest creating handles in a loop stops at the store's handle cap, the
// default one too, with a LimitError that poisons the store.
func TestHandleBombStopsAtHandleLimit(t *testing.T) {
	cases := []struct {
		name string
		max  int
		want uint64
	}{
		{"default cap", 0, component.DefaultMaxHandles},
		{"explicit cap", 100, 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inst := instantiate(t, newEngine(t), "engine-handle-bomb", &component.Store{Limits: component.Limits{MaxHandles: tc.max}})
			// Up to the cap is fine.
			if _, err := call(t, inst, "make", uint32(tc.want)); err != nil {
				t.Fatalf("%d handles: %v", tc.want, err)
			}
			_, err := call(t, inst, "make", uint32(1_000_000))
			var le *component.LimitError
			if !errors.As(err, &le) || le.Limit != component.LimitHandles || le.Max != tc.want || le.Func != "make" {
				t.Fatalf("want a %q LimitError with max %d in make, got %v", component.LimitHandles, tc.want, err)
			}
			if _, err := call(t, inst, "make", uint32(0)); !errors.Is(err, component.ErrPoisoned) {
				t.Errorf("the store is not poisoned after the limit: %v", err)
			}
		})
	}
}
