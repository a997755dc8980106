package component_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// preparedFor makes, in e, the configuration of key under lim ready to
// be restored and waits for the worker to prepare a store of it: its
// first store takes the snapshot, the second is restored and closed.
func preparedFor(t *testing.T, e *component.Engine, l *component.Linker, c *component.Component, key string, lim component.Limits) {
	t.Helper()
	pre := &component.Preinit{Key: key, Allow: allowAll}
	newReuseStore(t, l, c, &component.Store{Limits: lim, Preinit: pre}).close()
	closeGrown(newReuseStore(t, l, c, &component.Store{Limits: lim, Preinit: pre}))
	component.Settle(e)
}

// closeGrown grows r's memory, which keeps its instances from serving
// again (the worker then prepares a store), and closes it.
func closeGrown(r *reuseStore) {
	r.t.Helper()
	if got := r.call("grow", uint32(1)).(int32); got != 1 {
		r.t.Fatalf("grow answered %d, want 1", got)
	}
	r.close()
}

// A hostile guest's call cannot reach the store the worker prepares for
// the next call: not one prepared while the attacker's store was running
// (from nothing that store holds), not one prepared after it closed (in
// a mapping that store released). Each attack keeps the attacker's own
// instances from being reused, so the next store is the prepared one.
func TestPreparedStoreHoldsNothingOfTheLastStore(t *testing.T) {
	grown := func(a *reuseStore) {
		a.call("plant", plantedSecret)
		a.call("plant-grown", plantedSecret)
		if got := a.call("find", plantedSecret).(uint32); got&3 != 3 {
			a.t.Fatalf("the attacker's own store finds %#x: the secret never reached memory and global", got)
		}
	}
	trap := func(a *reuseStore) {
		var trap *component.TrapError
		if _, err := call(a.t, a.inst, reuseAPI+"plant-trap", plantedSecret); !errors.As(err, &trap) {
			a.t.Fatalf("plant-trap answered %v, want a trap", err)
		}
	}
	for _, tt := range []struct {
		name string
		// during prepares the next store while the attacker runs (its
		// store adopted a prepared one), not after it closed.
		during bool
		attack func(*reuseStore)
	}{
		{"grown memory, prepared while it ran", true, grown},
		{"grown memory, prepared after it closed", false, grown},
		{"trap, prepared while it ran", true, trap},
		{"trap, prepared after it closed", false, trap},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t)
			c, l := compile(t, e, storeReuse), component.NewLinker()
			pre := &component.Preinit{Key: "reuse", Allow: allowAll}
			preparedFor(t, e, l, c, "reuse", component.Limits{})
			if !tt.during {
				// The attacker's store is restored afresh, so the worker
				// prepares nothing until it closes.
				e.ReleaseIdle(context.Background())
			}
			adopted := component.AdoptedStores(e)
			a := newReuseStore(t, l, c, &component.Store{Preinit: pre})
			if got := component.AdoptedStores(e) > adopted; got != tt.during {
				t.Fatalf("the attacker's store adopted a prepared one: %v, want %v", got, tt.during)
			}
			// With during, the store asked for the next one when it adopted
			// its own: the worker prepares it while the attacker's is open.
			component.Settle(e)
			tt.attack(a)
			if err := a.inst.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			component.Settle(e)

			adopted = component.AdoptedStores(e)
			b := newReuseStore(t, l, c, &component.Store{Preinit: pre})
			defer b.close()
			if component.AdoptedStores(e) == adopted {
				t.Fatal("the next store did not adopt a prepared one: the test proves nothing")
			}
			if got := b.call("find", plantedSecret).(uint32); got != 0 {
				t.Fatalf("the prepared store finds traces %#x of the attacker's", got)
			}
		})
	}
}

// A prepared store serves only its own configuration: a store of another
// Preinit key or other memory or table limits is restored from its own
// snapshot, and the prepared one is still there for its configuration.
func TestPreparedStoreServesOnlyItsConfiguration(t *testing.T) {
	for _, tt := range []struct {
		name string
		key  string
		lim  component.Limits
	}{
		{"other key", "other", component.Limits{}},
		{"other memory cap", "reuse", component.Limits{MaxMemoryBytes: 4 << 16}},
		{"other table cap", "reuse", component.Limits{MaxTableElements: 64}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t)
			c, l := compile(t, e, storeReuse), component.NewLinker()
			preparedFor(t, e, l, c, "reuse", component.Limits{})
			adopted := component.AdoptedStores(e)
			other := &component.Preinit{Key: tt.key, Allow: allowAll}
			for range 2 { // the snapshot's first store, then a restored one
				o := newReuseStore(t, l, c, &component.Store{Limits: tt.lim, Preinit: other})
				if got := component.AdoptedStores(e); got != adopted {
					t.Fatal("a store of another configuration adopted the prepared store")
				}
				if got := o.call("find", plantedSecret).(uint32); got != 0 {
					t.Fatalf("find answered %#x in a store of another configuration", got)
				}
				o.inst.Close(context.Background())
				// Settled only after the check: the second one's close
				// prepares a store of its own configuration.
			}
			b := newReuseStore(t, l, c, &component.Store{Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}})
			defer b.close()
			if component.AdoptedStores(e) == adopted {
				t.Fatal("the prepared store was gone for its own configuration: the test proves nothing")
			}
		})
	}
}

// A prepared store's memory cap is the configuration's, counted from its
// memory as restored: capped at two pages from a snapshot of one, it
// grows by one page and no more.
func TestPreparedStoreKeepsTheMemoryCap(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	lim := component.Limits{MaxMemoryBytes: 2 << 16}
	preparedFor(t, e, l, c, "reuse", lim)
	adopted := component.AdoptedStores(e)
	b := newReuseStore(t, l, c, &component.Store{Limits: lim, Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}})
	defer b.close()
	if component.AdoptedStores(e) == adopted {
		t.Fatal("the capped store did not adopt the prepared one: the test proves nothing")
	}
	for i, want := range []int32{1, -1} {
		if got := b.call("grow", uint32(1)).(int32); got != want {
			t.Fatalf("grow %d under a 2-page cap answered %d, want %d", i, got, want)
		}
	}
}

// ReleaseIdle drops the prepared store: the next store is restored
// afresh, and works.
func TestReleaseIdleDropsPreparedStores(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	pre := &component.Preinit{Key: "reuse", Allow: allowAll}
	newReuseStore(t, l, c, &component.Store{Preinit: pre}).close()
	// Not settled: ReleaseIdle must also drop a store wanted or being
	// prepared.
	closeGrown(newReuseStore(t, l, c, &component.Store{Preinit: pre}))
	e.ReleaseIdle(context.Background())
	adopted, reused := component.AdoptedStores(e), component.ReusedStores(e)
	b := newReuseStore(t, l, c, &component.Store{Preinit: pre})
	defer b.close()
	if component.AdoptedStores(e) != adopted || component.ReusedStores(e) != reused {
		t.Fatal("a store after ReleaseIdle adopted a store the engine should have dropped")
	}
	if got := b.call("find", plantedSecret).(uint32); got != 0 {
		t.Fatalf("find answered %#x in a restored store", got)
	}
}
