package component_test

import (
	"context"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

const (
	storeReuse    = "engine-store-reuse"
	reuseAPI      = "test:guest/reuse@0.1.0#"
	plantedSecret = uint32(0x5ec2e7ab)
)

// reuseStore is one store of engine-store-reuse, made and closed by the
// test. Snapshots belong to a linker: stores meant to share one are made
// with the same linker.
type reuseStore struct {
	t    *testing.T
	inst *component.Instance
}

func newReuseStore(t *testing.T, l *component.Linker, c *component.Component, s *component.Store) *reuseStore {
	t.Helper()
	inst, err := l.Instantiate(context.Background(), c, s)
	if err != nil {
		t.Fatal(err)
	}
	return &reuseStore{t: t, inst: inst}
}

func (r *reuseStore) call(fn string, args ...any) any {
	r.t.Helper()
	v, err := call(r.t, r.inst, reuseAPI+fn, args...)
	if err != nil {
		r.t.Fatalf("%s: %v", fn, err)
	}
	return v
}

func (r *reuseStore) close() {
	r.t.Helper()
	if err := r.inst.Close(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

// A store whose memory reuses a mapping another store released finds
// none of what that store wrote: not in the pages it starts with, not in
// pages it grows into that the earlier store had committed. The mapping
// takes the engine's path: cleared by its worker after the store closed.
func TestReusedMappingHoldsNothingOfTheLastStore(t *testing.T) {
	for _, tt := range []struct {
		name   string
		attack []string
	}{
		{"memory", []string{"plant"}},
		{"grown memory", []string{"plant-grown"}},
		{"both", []string{"plant", "plant-grown"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t)
			c, l := compile(t, e, storeReuse), component.NewLinker()
			a := newReuseStore(t, l, c, &component.Store{})
			for _, fn := range tt.attack {
				a.call(fn, plantedSecret)
			}
			if got := a.call("find", plantedSecret).(uint32); got&2 == 0 {
				t.Fatalf("the attacker's own store finds %#x: the secret never reached memory", got)
			}
			cleared := component.ClearedMappings(e)
			a.close()
			component.Settle(e)
			if component.ClearedMappings(e) == cleared {
				t.Fatal("the worker cleared no mapping: the test proves nothing")
			}

			reused := component.ReusedMappings(e)
			b := newReuseStore(t, l, c, &component.Store{})
			defer b.close()
			if component.ReusedMappings(e) == reused {
				t.Fatal("the second store did not reuse the released mapping: the test proves nothing")
			}
			if got := b.call("find", plantedSecret).(uint32); got != 0 {
				t.Fatalf("a fresh store finds traces %#x of the last one", got)
			}
			if got := b.call("grow", uint32(2)).(int32); got != 1 {
				t.Fatalf("grow answered %d, want 1", got)
			}
			if got := b.call("find", plantedSecret).(uint32); got != 4 {
				t.Fatalf("after growing, a fresh store finds traces %#x of the last one (want only 4: memory grew)", got)
			}
		})
	}
}

// The memory cap counts a reused mapping's memory as exactly what the
// guest grew it to, never what an earlier store had committed: a store
// capped at 2 pages can grow by one page, not by the four the mapping
// still has readable.
func TestReusedMappingKeepsTheMemoryCap(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	a := newReuseStore(t, l, c, &component.Store{})
	if got := a.call("grow", uint32(4)).(int32); got != 1 {
		t.Fatalf("grow answered %d, want 1", got)
	}
	a.close()
	component.Settle(e)

	reused := component.ReusedMappings(e)
	b := newReuseStore(t, l, c, &component.Store{Limits: component.Limits{MaxMemoryBytes: 2 << 16}})
	defer b.close()
	if component.ReusedMappings(e) == reused {
		t.Fatal("the capped store did not reuse the released mapping")
	}
	for i, want := range []int32{1, -1, -1} {
		if got := b.call("grow", uint32(1)).(int32); got != want {
			t.Fatalf("grow %d under a 2-page cap answered %d, want %d", i, got, want)
		}
	}
}

// ReleaseIdle gives the pooled mappings back: the next store maps afresh,
// and works.
func TestReleaseIdleDropsPooledMappings(t *testing.T) {
	e := newEngine(t)
	c, l := compile(t, e, storeReuse), component.NewLinker()
	newReuseStore(t, l, c, &component.Store{}).close()
	e.ReleaseIdle(context.Background())
	reused := component.ReusedMappings(e)
	b := newReuseStore(t, l, c, &component.Store{})
	defer b.close()
	if component.ReusedMappings(e) != reused {
		t.Fatal("a store after ReleaseIdle reused a mapping the engine should have given back")
	}
	if got := b.call("find", plantedSecret).(uint32); got != 0 {
		t.Fatalf("find answered %#x in a fresh store", got)
	}
}
