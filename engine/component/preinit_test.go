package component_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const (
	enginePreinit = "engine-preinit"
	preinitAPI    = "test:guest/preinit@0.1.0#"
)

// initHost is the host of engine-preinit: mode comes from the store's
// initStore; get-res and open hand out a resource whose id names the
// store it was made for, so a handle leaking between stores shows.
type initHost struct {
	linker *component.Linker
	// modeCalls counts the guest's start functions that ran (each asks
	// for the mode once).
	modeCalls atomic.Int32
}

type initStore struct {
	mode uint32
	id   uint32 // the id of resources made for this store
	// made counts the resources made for this store.
	made int
}

func newInitHost(t *testing.T) *initHost {
	t.Helper()
	const inst = "test:host/init@0.1.0"
	res := &wit.ResourceType{Name: "res"}
	h := &initHost{linker: component.NewLinker()}
	l := h.linker
	data := func(s *component.Store) *initStore { return s.Data.(*initStore) }
	newRes := func(s *component.Store) wit.Resource {
		d := data(s)
		d.made++
		return wit.Resource{Type: res, Rep: d.id}
	}
	for _, err := range []error{
		l.DefineResource(inst, "res", res, nil),
		l.DefineFunc(inst, "mode", &wit.Func{Result: wit.U32}, func(_ context.Context, s *component.Store, _ []any) (any, error) {
			h.modeCalls.Add(1)
			return data(s).mode, nil
		}),
		l.DefineFunc(inst, "observe", &wit.Func{}, func(context.Context, *component.Store, []any) (any, error) { return nil, nil }),
		l.DefineFunc(inst, "get-res", &wit.Func{Result: &wit.Own{Resource: res}}, func(_ context.Context, s *component.Store, _ []any) (any, error) {
			return newRes(s), nil
		}),
		l.DefineFunc(inst, "open", &wit.Func{Params: []wit.Param{{Name: "n", Type: wit.U32}}, Result: &wit.Own{Resource: res}},
			func(_ context.Context, s *component.Store, _ []any) (any, error) { return newRes(s), nil }),
		l.DefineFunc(inst, "id", &wit.Func{Params: []wit.Param{{Name: "r", Type: &wit.Borrow{Resource: res}}}, Result: wit.U32},
			func(_ context.Context, _ *component.Store, args []any) (any, error) {
				return args[0].(wit.Resource).Rep, nil
			}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// calls instantiates a store and returns the four exports' answers, in
// order count, count, mem-count, mode, res-id (count twice: state does
// persist within one store).
func (h *initHost) calls(t *testing.T, c *component.Component, s *component.Store) []uint32 {
	t.Helper()
	inst, err := h.linker.Instantiate(context.Background(), c, s)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(context.Background())
	var out []uint32
	for _, fn := range []string{"count", "count", "mem-count", "mode", "res-id"} {
		v, err := call(t, inst, preinitAPI+fn)
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		out = append(out, v.(uint32))
	}
	return out
}

func allowAll(string, string) bool { return true }

// Every store restored from a snapshot starts where initialisation left
// the guest, never where an earlier store's calls left it; and the
// snapshot is really used: initialisation runs once, not per store.
func TestPreinitFreshStateEveryStore(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, enginePreinit)
	h := newInitHost(t)
	want := []uint32{42, 43, 42, 0, 0}
	normal := h.calls(t, c, &component.Store{Data: &initStore{}})
	if !equalU32(normal, want) {
		t.Fatalf("normal instantiation answered %v, want %v", normal, want)
	}
	h.modeCalls.Store(0)
	pre := &component.Preinit{Key: "mode 0", Allow: allowAll}
	for i := range 5 {
		if got := h.calls(t, c, &component.Store{Data: &initStore{}, Preinit: pre}); !equalU32(got, want) {
			t.Fatalf("store %d answered %v, want %v (as a normally initialised one)", i, got, want)
		}
	}
	if n := h.modeCalls.Load(); n != 1 {
		t.Fatalf("initialisation ran %d times for 5 stores, want once (the snapshot's)", n)
	}
}

// A handle initialisation kept is remade in each restored store from that
// store's own host: no store reaches the resource of the store the
// snapshot was taken in. A handle it dropped is made and dropped again,
// so the next handle numbers are the same too.
func TestPreinitRemakesHandlesPerStore(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, enginePreinit)
	for _, mode := range []uint32{2, 4} {
		t.Run(fmt.Sprintf("mode %d", mode), func(t *testing.T) {
			h := newInitHost(t)
			pre := &component.Preinit{Key: "replay", Allow: allowAll}
			for i := range uint32(4) {
				d := &initStore{mode: mode, id: 100 + i}
				want := []uint32{42, 43, 42, mode, 100 + i}
				if mode == 4 {
					want[4] = 0
				}
				if got := h.calls(t, c, &component.Store{Data: d, Preinit: pre}); !equalU32(got, want) {
					t.Fatalf("store %d answered %v, want %v", i, got, want)
				}
				if d.made != 1 {
					t.Fatalf("store %d: %d resources made for it, want 1", i, d.made)
				}
			}
			if n := h.modeCalls.Load(); n != 1 {
				t.Fatalf("initialisation ran %d times, want once", n)
			}
		})
	}
}

// When initialisation does what a snapshot cannot stand for, every store
// initialises normally, and works.
func TestPreinitFallsBack(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, enginePreinit)
	denyObserve := func(_, name string) bool { return name != "observe" }
	for _, tc := range []struct {
		name  string
		mode  uint32
		allow func(string, string) bool
		resID bool
	}{
		{"host call not admitted", 1, denyObserve, false},
		{"no Allow", 0, nil, false},
		{"handle from a call with arguments", 3, allowAll, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newInitHost(t)
			pre := &component.Preinit{Key: tc.name, Allow: tc.allow}
			for i := range uint32(3) {
				want := []uint32{42, 43, 42, tc.mode, 0}
				if tc.resID {
					want[4] = 7 + i
				}
				got := h.calls(t, c, &component.Store{Data: &initStore{mode: tc.mode, id: 7 + i}, Preinit: pre})
				if !equalU32(got, want) {
					t.Fatalf("store %d answered %v, want %v", i, got, want)
				}
			}
			if n := h.modeCalls.Load(); n != 3 {
				t.Fatalf("initialisation ran %d times for 3 stores, want 3 (no snapshot)", n)
			}
		})
	}
}

// A snapshot belongs to one configuration: stores with another key, or
// other limits, never start from it.
func TestPreinitKeyedByConfiguration(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, enginePreinit)
	h := newInitHost(t)
	for round := range 3 {
		for _, mode := range []uint32{5, 6} {
			pre := &component.Preinit{Key: string(rune('0' + mode)), Allow: allowAll}
			got := h.calls(t, c, &component.Store{Data: &initStore{mode: mode}, Preinit: pre})
			if got[3] != mode {
				t.Fatalf("round %d: a store configured with mode %d saw mode %d", round, mode, got[3])
			}
		}
	}
	pre := &component.Preinit{Key: "5", Allow: allowAll}
	got := h.calls(t, c, &component.Store{Data: &initStore{mode: 9}, Preinit: pre, Limits: component.Limits{MaxMemoryBytes: 1 << 20}})
	if got[3] != 9 {
		t.Fatalf("a store with other limits started from another configuration's snapshot (mode %d)", got[3])
	}
	if n := h.modeCalls.Load(); n != 3 {
		t.Fatalf("initialisation ran %d times, want 3 (one per configuration)", n)
	}
}

// The memory cap holds for restored stores as for initialising ones: a
// Go guest that cannot initialise under the cap fails the same way.
func TestPreinitMemoryLimit(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, testguest.ToolrunGo)
	l := wasiLinker(t)
	pre := &component.Preinit{Key: "k", Allow: allowAll}
	for _, lim := range []uint64{0, 1 << 20} {
		for range 2 {
			s := wasiStore(t)
			s.Limits.MaxMemoryBytes, s.Preinit = lim, pre
			inst, err := l.Instantiate(context.Background(), c, s)
			var le *component.LimitError
			switch {
			case lim == 0 && err != nil:
				t.Fatalf("uncapped: %v", err)
			case lim == 0:
				inst.Close(context.Background())
			case !errors.As(err, &le) || le.Limit != component.LimitMemory:
				t.Fatalf("capped at %d bytes: got %v, want a memory LimitError", lim, err)
			}
		}
	}
}

func wasiLinker(t *testing.T) *component.Linker {
	t.Helper()
	l := component.NewLinker()
	if err := wasip2.Register(l, func(s *component.Store) *wasip2.Ctx { return s.Data.(*wasip2.Ctx) }); err != nil {
		t.Fatal(err)
	}
	return l
}

func wasiStore(t *testing.T) *component.Store {
	t.Helper()
	wctx, err := wasip2.NewCtx(wasip2.Grants{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wctx.Close() })
	return &component.Store{Data: wctx}
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Stores of one configuration instantiated at once, while the first is
// still taking the snapshot, each get their own state and resources.
func TestPreinitConcurrentStores(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, enginePreinit)
	h := newInitHost(t)
	pre := &component.Preinit{Key: "mode 2", Allow: allowAll}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range uint32(8) {
		wg.Go(func() {
			for i := range uint32(5) {
				id := 1000*g + i
				inst, err := h.linker.Instantiate(context.Background(), c, &component.Store{Data: &initStore{mode: 2, id: id}, Preinit: pre})
				if err != nil {
					errs <- err
					return
				}
				v, err := call(t, inst, preinitAPI+"res-id")
				inst.Close(context.Background())
				if err != nil || v != id {
					errs <- fmt.Errorf("store with resource %d: res-id %v, %v", id, v, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A guest that fills a large memory at start-up would make the host keep
// that memory for as long as the component lives; past a bound it is not
// snapshotted, and every store initialises (and works) as before.
func TestPreinitSnapshotTooLarge(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, enginePreinit)
	h := newInitHost(t)
	pre := &component.Preinit{Key: "mode 8", Allow: allowAll}
	for i := range 3 {
		inst, err := h.linker.Instantiate(context.Background(), c, &component.Store{Data: &initStore{mode: 8}, Preinit: pre})
		if err != nil {
			t.Fatal(err)
		}
		v, err := call(t, inst, preinitAPI+"last-byte")
		inst.Close(context.Background())
		if err != nil || v != uint32(0xab) {
			t.Fatalf("store %d: last byte %v, %v; want 0xab", i, v, err)
		}
	}
	if n := h.modeCalls.Load(); n != 3 {
		t.Fatalf("initialisation ran %d times for 3 stores, want 3 (no snapshot kept)", n)
	}
}
