package canon

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/wit"
)

// memoryModule is a core module that only exports a one-page memory:
// magic and version, a memory section (one memory, min 1 page) and an
// export section exporting memory 0 as "memory".
func memoryModule() []byte {
	return []byte{
		0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00,
		0x05, 0x03, 0x01, 0x00, 0x01,
		0x07, 0x0a, 0x01, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00,
	}
}

func newMemory(tb testing.TB) api.Memory {
	tb.Helper()
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	tb.Cleanup(func() { r.Close(ctx) })
	mod, err := r.Instantiate(ctx, memoryModule())
	if err != nil {
		tb.Fatal(err)
	}
	m := mod.ExportedMemory("memory")
	if m == nil {
		tb.Fatal("no memory export")
	}
	return m
}

// reallocCall records one call to the guest's realloc.
type reallocCall struct{ old, oldSize, align, newSize uint32 }

// bump is a test realloc: a bump allocator over the memory that grows it
// when needed and copies on reallocation, as a real allocator may.
type bump struct {
	mem   api.Memory
	top   uint32
	calls []reallocCall
	log   bool
}

const bumpBase = 16

func newBump(mem api.Memory) *bump { return &bump{mem: mem, top: bumpBase} }

func (b *bump) reset() {
	b.top = bumpBase
	b.calls = b.calls[:0]
}

func (b *bump) realloc(_ context.Context, old, oldSize, align, newSize uint32) (uint32, error) {
	if b.log {
		b.calls = append(b.calls, reallocCall{old, oldSize, align, newSize})
	}
	p := uint32(alignTo(uint64(b.top), align))
	end := uint64(p) + uint64(newSize)
	if size := uint64(b.mem.Size()); end > size {
		if _, ok := b.mem.Grow(uint32((end - size + 65535) / 65536)); !ok {
			return 0, errors.New("bump: out of memory")
		}
	}
	if old != 0 {
		buf, _ := b.mem.Read(0, b.mem.Size())
		copy(buf[p:end], buf[old:old+min(oldSize, newSize)])
	}
	b.top = uint32(end)
	return p, nil
}

// fakeHandles is a handle table: own and borrow handles both map an index
// to the resource.
type fakeHandles struct {
	next  uint32
	table map[uint32]wit.Resource
}

func newHandles() *fakeHandles { return &fakeHandles{table: map[uint32]wit.Resource{}} }

func (h *fakeHandles) get(t *wit.ResourceType, i uint32) (wit.Resource, error) {
	r, ok := h.table[i]
	if !ok {
		return wit.Resource{}, &Trap{Reason: fmt.Sprintf("unknown handle %d", i)}
	}
	if r.Type != t {
		return wit.Resource{}, &Trap{Reason: "resource type mismatch"}
	}
	return r, nil
}

func (h *fakeHandles) LiftOwn(t *wit.ResourceType, i uint32) (wit.Resource, error) {
	r, err := h.get(t, i)
	if err == nil {
		delete(h.table, i)
	}
	return r, err
}

func (h *fakeHandles) LiftBorrow(t *wit.ResourceType, i uint32) (wit.Resource, error) {
	return h.get(t, i)
}

func (h *fakeHandles) add(r wit.Resource) (uint32, error) {
	h.next++
	h.table[h.next] = r
	return h.next, nil
}

func (h *fakeHandles) LowerOwn(_ *wit.ResourceType, r wit.Resource) (uint32, error) {
	return h.add(r)
}

func (h *fakeHandles) LowerBorrow(_ *wit.ResourceType, r wit.Resource) (uint32, error) {
	return h.add(r)
}

// env is the memory, allocator and options of one test.
type env struct {
	mem  api.Memory
	bump *bump
	opts *Options
}

func newEnv(tb testing.TB, enc StringEncoding) *env {
	mem := newMemory(tb)
	b := newBump(mem)
	return &env{mem: mem, bump: b, opts: &Options{Encoding: enc, Memory: mem, Realloc: b.realloc, Handles: newHandles()}}
}

func (e *env) bytes(p, n uint32) []byte {
	b, ok := e.mem.Read(p, n)
	if !ok {
		panic("out of bounds")
	}
	return b
}

func (e *env) alloc(tb testing.TB, align, size uint32) uint32 {
	p, err := e.bump.realloc(context.Background(), 0, 0, align, size)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func mustType(tb testing.TB, t wit.Type) *Type {
	tb.Helper()
	lt, err := NewType(t)
	if err != nil {
		tb.Fatal(err)
	}
	return lt
}

func mustFunc(tb testing.TB, f *wit.Func) *Func {
	tb.Helper()
	fn, err := NewFunc(f)
	if err != nil {
		tb.Fatal(err)
	}
	return fn
}

func isTrap(err error) bool {
	var t *Trap
	return errors.As(err, &t)
}

func isValueError(err error) bool {
	var v *ValueError
	return errors.As(err, &v)
}

// Type constructors for tests; kv alternates names and types.

func rec(kv ...any) *wit.Record {
	r := &wit.Record{}
	for i := 0; i < len(kv); i += 2 {
		t, _ := kv[i+1].(wit.Type)
		r.Fields = append(r.Fields, wit.Field{Name: kv[i].(string), Type: t})
	}
	return r
}

func vnt(kv ...any) *wit.Variant {
	v := &wit.Variant{}
	for i := 0; i < len(kv); i += 2 {
		t, _ := kv[i+1].(wit.Type)
		v.Cases = append(v.Cases, wit.Case{Name: kv[i].(string), Type: t})
	}
	return v
}

func params(ts ...wit.Type) []wit.Param {
	ps := make([]wit.Param, len(ts))
	for i, t := range ts {
		ps[i] = wit.Param{Name: fmt.Sprint("p", i), Type: t}
	}
	return ps
}

func tup(ts ...wit.Type) *wit.Tuple { return &wit.Tuple{Types: ts} }
func opt(t wit.Type) *wit.Option    { return &wit.Option{Elem: t} }
func list(t wit.Type) *wit.List     { return &wit.List{Elem: t} }
func mapOf(k, v wit.Type) *wit.Map  { return &wit.Map{Key: k, Value: v} }
func fixed(t wit.Type, n int) *wit.FixedList {
	return &wit.FixedList{Elem: t, Len: uint32(n)}
}

// tooFlat reports whether t's flattening was cut at flatLimit, so that its
// values are only passed in memory.
func tooFlat(t *Type) bool             { return len(t.Flat()) > flatLimit }
func res(ok, err wit.Type) *wit.Result { return &wit.Result{OK: ok, Err: err} }
func enum(n int) *wit.Enum             { return &wit.Enum{Cases: names(n)} }
func flags(n int) *wit.Flags           { return &wit.Flags{Names: names(n)} }

// toolInputType is record tool-input { data: option<string>, log-path: option<string> }.
func toolInputType() *wit.Record {
	return rec("data", opt(wit.String), "log-path", opt(wit.String))
}
