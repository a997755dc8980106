package component

import (
	"context"
	"testing"
)

// fakeMapping is a reusableMapping on the heap.
type fakeMapping struct{ b []byte }

func (f *fakeMapping) reserved() uint64  { return uint64(len(f.b)) }
func (f *fakeMapping) committed() uint64 { return uint64(len(f.b)) }
func (f *fakeMapping) zero()             { clear(f.b) }
func (f *fakeMapping) unmap()            { f.b = nil }

// A released mapping is handed out only once the worker cleared it: with
// the worker not running, a store maps afresh.
func TestPoolHandsOutOnlyClearedMappings(t *testing.T) {
	var bg background
	bg.close() // never runs: the test does its steps
	p := &memPool{bg: &bg}
	p.cleared.L = &p.mu
	m := &fakeMapping{b: []byte("secret")}
	if !p.put(m) {
		t.Fatal("the pool refused a small mapping")
	}
	if got := p.get(m.reserved()); got != nil {
		t.Fatal("the pool handed out a mapping before it was cleared")
	}
	if !p.clearNext() {
		t.Fatal("no mapping to clear")
	}
	if got := p.get(m.reserved()); got != m || string(m.b) != "\x00\x00\x00\x00\x00\x00" {
		t.Fatalf("after clearing the pool handed out %v holding %q", got, m.b)
	}
}

// Engine.Close stops the worker and leaves nothing prepared or pooled,
// even with work still queued.
func TestCloseLeavesNothingPrepared(t *testing.T) {
	ctx := context.Background()
	e, err := NewEngine(ctx, Config{DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	e.pool.put(&fakeMapping{b: make([]byte, 8)})
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	e.stores.want(prepareJob{ctx: ctx, snap: &snapshot{}})
	e.bg.kick()
	if len(e.stores.idle) != 0 || len(e.stores.wanted) != 0 || len(e.pool.idle) != 0 || len(e.pool.dirty) != 0 || !e.bg.closed {
		t.Fatalf("after Close the engine holds idle %d, wanted %d, mappings %d+%d", len(e.stores.idle), len(e.stores.wanted), len(e.pool.idle), len(e.pool.dirty))
	}
}
