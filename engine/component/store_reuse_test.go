package component_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// parkedStore closes, in e, a store of engine-store-reuse restored from a
// snapshot after attack ran in it: the configuration's first store takes
// the snapshot, the second is restored, attacked and closed, which leaves
// its instances idle when they can be reset.
func parkedStore(t *testing.T, l *component.Linker, c *component.Component, lim component.Limits, attack func(*reuseStore)) {
	t.Helper()
	parkedStoreOf(t, l, c, "reuse", lim, attack)
}

// parkedStoreOf is parkedStore for the configuration of Preinit key.
func parkedStoreOf(t *testing.T, l *component.Linker, c *component.Component, key string, lim component.Limits, attack func(*reuseStore)) {
	t.Helper()
	pre := &component.Preinit{Key: key, Allow: allowAll}
	newReuseStore(t, l, c, &component.Store{Limits: lim, Preinit: pre}).close()
	a := newReuseStore(t, l, c, &component.Store{Limits: lim, Preinit: pre})
	attack(a)
	if err := a.inst.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A store made from the instances of a closed one starts exactly where a
// freshly restored store does: nothing the last store wrote into its
// memory or its mutable global survives, and what initialisation and the
// data segment left is there again. A store that cannot be reset (its
// memory grew; it trapped) is not reused at all, and the next store is
// fresh too.
func TestReusedStoreHoldsNothingOfTheLastStore(t *testing.T) {
	for _, tt := range []struct {
		name   string
		attack func(*reuseStore)
		reused bool
	}{
		{"memory and global", func(a *reuseStore) {
			a.call("plant", plantedSecret)
			if got := a.call("find", plantedSecret).(uint32); got&3 != 3 {
				a.t.Fatalf("the attacker's own store finds %#x: the secret never reached memory and global", got)
			}
		}, true},
		{"grown memory", func(a *reuseStore) {
			a.call("plant", plantedSecret)
			a.call("plant-grown", plantedSecret)
		}, false},
		{"trap", func(a *reuseStore) {
			var trap *component.TrapError
			if _, err := call(a.t, a.inst, reuseAPI+"plant-trap", plantedSecret); !errors.As(err, &trap) {
				a.t.Fatalf("plant-trap answered %v, want a trap", err)
			}
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t)
			c, l := compile(t, e, storeReuse), component.NewLinker()
			parkedStore(t, l, c, component.Limits{}, tt.attack)
			reused := component.ReusedStores(e)
			b := newReuseStore(t, l, c, &component.Store{Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}})
			defer b.close()
			if got := component.ReusedStores(e) > reused; got != tt.reused {
				t.Fatalf("store reused: %v, want %v", got, tt.reused)
			}
			if got := b.call("find", plantedSecret).(uint32); got != 0 {
				t.Fatalf("the next store finds traces %#x of the last one", got)
			}
		})
	}
}

// A reused store's memory cap counts its memory as it is: a store capped
// at two pages, starting from a snapshot of one, grows by one page and
// no more.
func TestReusedStoreKeepsTheMemoryCap(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	lim := component.Limits{MaxMemoryBytes: 2 << 16}
	parkedStore(t, l, c, lim, func(a *reuseStore) { a.call("plant", plantedSecret) })
	reused := component.ReusedStores(e)
	b := newReuseStore(t, l, c, &component.Store{Limits: lim, Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}})
	defer b.close()
	if component.ReusedStores(e) == reused {
		t.Fatal("the capped store was not reused: the test proves nothing")
	}
	for i, want := range []int32{1, -1} {
		if got := b.call("grow", uint32(1)).(int32); got != want {
			t.Fatalf("grow %d under a 2-page cap answered %d, want %d", i, got, want)
		}
	}
}

// ReleaseIdle closes the idle stores: the next store is restored afresh.
func TestReleaseIdleClosesIdleStores(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	parkedStore(t, l, c, component.Limits{}, func(a *reuseStore) { a.call("plant", plantedSecret) })
	e.ReleaseIdle(context.Background())
	reused := component.ReusedStores(e)
	b := newReuseStore(t, l, c, &component.Store{Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}})
	defer b.close()
	if component.ReusedStores(e) != reused {
		t.Fatal("a store after ReleaseIdle reused an idle store the engine should have closed")
	}
	if got := b.call("find", plantedSecret).(uint32); got != 0 {
		t.Fatalf("find answered %#x in a restored store", got)
	}
}

// A store whose instances went on to serve another is closed for good:
// calling it fails, and cannot plant anything in the store that took its
// instances over.
func TestClosedStoreCannotReachItsSuccessor(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	pre := &component.Preinit{Key: "reuse", Allow: allowAll}
	newReuseStore(t, l, c, &component.Store{Preinit: pre}).close()
	a := newReuseStore(t, l, c, &component.Store{Preinit: pre})
	a.close()
	reused := component.ReusedStores(e)
	b := newReuseStore(t, l, c, &component.Store{Preinit: pre})
	defer b.close()
	if component.ReusedStores(e) == reused {
		t.Fatal("the second store's instances were not reused: the test proves nothing")
	}
	if _, err := call(t, a.inst, reuseAPI+"plant", plantedSecret); !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("a call into the closed store answered %v, want ErrPoisoned", err)
	}
	if err := a.inst.Close(context.Background()); err != nil {
		t.Fatalf("closing the closed store again: %v", err)
	}
	if got := b.call("find", plantedSecret).(uint32); got != 0 {
		t.Fatalf("the successor finds traces %#x of a call into its closed predecessor", got)
	}
}

// The engine keeps a few idle stores; a configuration closed last takes
// the place of the one idle longest, so what is called often stays
// reusable.
func TestIdleStoresMakeRoomForTheLatest(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	const configs = 5 // one more than the engine keeps
	for i := range configs {
		parkedStoreOf(t, l, c, fmt.Sprint("config ", i), component.Limits{}, func(*reuseStore) {})
	}
	for _, tt := range []struct {
		config int
		reused bool
	}{{configs - 1, true}, {0, false}} {
		reused := component.ReusedStores(e)
		newReuseStore(t, l, c, &component.Store{Preinit: &component.Preinit{Key: fmt.Sprint("config ", tt.config), Allow: allowAll}}).close()
		if got := component.ReusedStores(e) > reused; got != tt.reused {
			t.Fatalf("config %d reused: %v, want %v", tt.config, got, tt.reused)
		}
	}
}

// Stores are reset to an image of their snapshot's memory, and the
// engine bounds the images it holds. A linker made per session leaves its
// snapshots behind; their images make room for the configuration served
// now, so its stores are reused however many came before, and the oldest
// image is the one dropped.
func TestImagesMakeRoomForTheLatest(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, storeReuse)
	component.BoundImages(e, 2<<16) // the images of two stores of one page
	var linkers []*component.Linker
	for i := range 5 {
		l := component.NewLinker()
		linkers = append(linkers, l)
		parkedStoreOf(t, l, c, "reuse", component.Limits{}, func(*reuseStore) {})
		reused := component.ReusedStores(e)
		newReuseStore(t, l, c, &component.Store{Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}}).close()
		if component.ReusedStores(e) == reused {
			t.Fatalf("linker %d: a store of the latest configuration was not reused", i)
		}
	}
	// The first linker's image is gone: its next store is restored, and
	// the one after it reused again.
	for _, want := range []bool{false, true} {
		reused := component.ReusedStores(e)
		newReuseStore(t, linkers[0], c, &component.Store{Preinit: &component.Preinit{Key: "reuse", Allow: allowAll}}).close()
		if got := component.ReusedStores(e) > reused; got != want {
			t.Fatalf("first linker's store reused: %v, want %v", got, want)
		}
	}
}
