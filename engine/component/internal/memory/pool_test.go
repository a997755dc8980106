package memory

import "testing"

// fakeMapping is a reusableMapping on the heap.
type fakeMapping struct{ b []byte }

func (f *fakeMapping) reserved() uint64  { return uint64(len(f.b)) }
func (f *fakeMapping) committed() uint64 { return uint64(len(f.b)) }
func (f *fakeMapping) zero()             { clear(f.b) }
func (f *fakeMapping) unmap()            { f.b = nil }

// A released mapping is handed out only once the worker cleared it: with
// the worker not running, a store maps afresh.
func TestPoolHandsOutOnlyClearedMappings(t *testing.T) {
	p := NewPool(func() {}) // no worker: the test does its steps
	m := &fakeMapping{b: []byte("secret")}
	if !p.put(m) {
		t.Fatal("the pool refused a small mapping")
	}
	if got := p.get(m.reserved()); got != nil {
		t.Fatal("the pool handed out a mapping before it was cleared")
	}
	if !p.ClearNext() {
		t.Fatal("no mapping to clear")
	}
	if got := p.get(m.reserved()); got != m || string(m.b) != "\x00\x00\x00\x00\x00\x00" {
		t.Fatalf("after clearing the pool handed out %v holding %q", got, m.b)
	}
}
