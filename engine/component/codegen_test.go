package component_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The patched wazero compiler (RATIONALE.md, "Warm calls: code generation
// patches") leaves out bounds checks a dominating check covers and moves
// the exit paths of checks out of line. A wrong omission would let a guest
// read or write outside its memory, so these tests run the shapes the
// patch recognises, and the near misses it must not, at addresses around
// every edge, on the compiler and on the interpreter (which has neither
// patch), and require the same results, traps and memory contents.

// addrForm is how an access computes its address from the parameter x.
type addrForm int

const (
	direct  addrForm = iota // x
	add32                   // i32.add(x, i32.const k)
	goStyle                 // i32.wrap_i64(i64.add(i64.extend_i32_u(x), i64.const k))
)

// access is one load (added to the result) or store (of a marker byte
// pattern) of size bytes at the address form's value plus offset.
type access struct {
	form   addrForm
	k      uint64
	offset uint32
	size   int // 1, 2, 4 or 8
	store  bool
	// inIf puts this access and all after it in an `if` whose condition
	// holds, so what is known flows into other blocks.
	inIf bool
}

func TestCompiledBoundsChecksMatchInterpreter(t *testing.T) {
	tests := []struct {
		name     string
		accesses []access
	}{
		{"i32.add within the check on its base", []access{
			{form: direct, offset: 12, size: 4},
			{form: add32, k: 8, offset: 4, size: 4},
			{form: add32, k: 4, offset: 0, size: 8},
			{form: add32, k: 0, offset: 15, size: 1},
		}},
		{"i32.add beyond the check on its base", []access{
			{form: direct, offset: 12, size: 4},
			{form: add32, k: 8, offset: 8, size: 4},
			{form: add32, k: 16, offset: 0, size: 1},
		}},
		{"i32.add that wraps", []access{
			{form: direct, offset: 0, size: 8},
			{form: add32, k: 0xfffffff8, offset: 0, size: 8},
			{form: add32, k: 0xffffffff, offset: 1, size: 4},
		}},
		{"go stack addresses", []access{
			{form: direct, offset: 104, size: 8},
			{form: goStyle, k: 8, offset: 0, size: 8},
			{form: goStyle, k: 96, offset: 8, size: 8},
			{form: goStyle, k: 104, offset: 0, size: 8},
			{form: goStyle, k: 105, offset: 0, size: 8},
			{form: goStyle, k: 0, offset: 111, size: 1},
		}},
		{"go addresses with constants out of i32 range", []access{
			{form: direct, offset: 64, size: 8},
			{form: goStyle, k: 1<<32 + 8, offset: 0, size: 8},
			{form: goStyle, k: 1<<64 - 8, offset: 0, size: 8},
			{form: goStyle, k: 1<<63 + 16, offset: 0, size: 4},
		}},
		{"stores before a failing check stay written", []access{
			{form: direct, offset: 0, size: 8, store: true},
			{form: add32, k: 4, offset: 0, size: 4, store: true},
			{form: add32, k: 8, offset: 0, size: 8, store: true},
			{form: goStyle, k: 16, offset: 0, size: 8, store: true},
			{form: goStyle, k: 4, offset: 0, size: 2, store: true},
		}},
		{"known bound flows into a later block", []access{
			{form: direct, offset: 24, size: 8},
			{form: add32, k: 16, offset: 0, size: 8, inIf: true},
			{form: goStyle, k: 8, offset: 8, size: 8},
			{form: add32, k: 32, offset: 0, size: 1, store: true},
			{form: goStyle, k: 28, offset: 0, size: 4},
		}},
		{"offsets past the first page", []access{
			{form: direct, offset: 65530, size: 4},
			{form: add32, k: 65530, offset: 0, size: 4},
			{form: goStyle, k: 65528, offset: 4, size: 2},
		}},
	}
	xs := edgeAddresses()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := boundsModule(tt.accesses)
			ctx := context.Background()
			compiled := instantiateBounds(t, wazero.NewRuntimeConfigCompiler(), bin)
			interpreted := instantiateBounds(t, wazero.NewRuntimeConfigInterpreter(), bin)
			for _, x := range xs {
				want := callBounds(ctx, t, interpreted, x)
				got := callBounds(ctx, t, compiled, x)
				if got != want {
					t.Fatalf("f(%#x): compiled %s, interpreted %s", x, got, want)
				}
			}
		})
	}
}

// edgeAddresses are the values of x tried: around the start and end of the
// one-page memory and around 2^32, where an address can wrap.
func edgeAddresses() []uint32 {
	var xs []uint32
	for x := uint32(0); x < 24; x++ {
		xs = append(xs, x)
	}
	for x := uint32(65536 - 200); x <= 65536+16; x++ {
		xs = append(xs, x)
	}
	for x := uint32(1<<32 - 24); x != 0; x++ {
		xs = append(xs, x)
	}
	return append(xs, 1<<31-1, 1<<31, 1<<31+8)
}

func instantiateBounds(t *testing.T, cfg wazero.RuntimeConfig, bin []byte) api.Module {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, cfg)
	t.Cleanup(func() { r.Close(ctx) })
	mod, err := r.Instantiate(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

// callBounds fills the memory with a pattern, calls f(x) and describes
// the outcome: the result or the trap, and a digest of the memory after.
func callBounds(ctx context.Context, t *testing.T, mod api.Module, x uint32) string {
	t.Helper()
	mem := mod.Memory()
	pattern := make([]byte, mem.Size())
	for i := range pattern {
		pattern[i] = byte(i*7 + 3)
	}
	if !mem.Write(0, pattern) {
		t.Fatal("cannot fill memory")
	}
	res, err := mod.ExportedFunction("f").Call(ctx, uint64(x))
	after, _ := mem.Read(0, mem.Size())
	sum := crc32.ChecksumIEEE(after)
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return fmt.Sprintf("trap %q, memory %08x", msg, sum)
	}
	return fmt.Sprintf("%#x, memory %08x", res[0], sum)
}

// boundsModule encodes a module with one page of memory and
// f(x i32) i64, which makes the accesses in order and returns the sum of
// what it loaded.
func boundsModule(accesses []access) []byte {
	var body []byte
	op := func(b ...byte) { body = append(body, b...) }
	ifs := 0
	for i, a := range accesses {
		if a.inIf {
			op(0x41, 0x01, 0x04, 0x40) // i32.const 1; if (empty)
			ifs++
		}
		switch a.form {
		case direct:
			op(0x20, 0x00)
		case add32:
			op(0x20, 0x00, 0x41)
			body = appendSLEB(body, int64(int32(uint32(a.k))))
			op(0x6a)
		case goStyle:
			op(0x20, 0x00, 0xad, 0x42) // local.get 0; i64.extend_i32_u; i64.const
			body = appendSLEB(body, int64(a.k))
			op(0x7c, 0xa7) // i64.add; i32.wrap_i64
		}
		align := map[int]byte{1: 0, 2: 1, 4: 2, 8: 3}[a.size]
		if a.store {
			op(0x42)
			body = appendSLEB(body, int64(0x5a5a5a5a5a5a5a00+i))
			op(map[int]byte{1: 0x3c, 2: 0x3d, 4: 0x3e, 8: 0x37}[a.size], align)
			body = binary.AppendUvarint(body, uint64(a.offset))
			continue
		}
		op(map[int]byte{1: 0x31, 2: 0x33, 4: 0x35, 8: 0x29}[a.size], align)
		body = binary.AppendUvarint(body, uint64(a.offset))
		op(0x20, 0x01, 0x7c, 0x21, 0x01) // local.get 1; i64.add; local.set 1
	}
	for ; ifs > 0; ifs-- {
		op(0x0b)
	}
	op(0x20, 0x01, 0x0b) // local.get 1; end

	fn := append([]byte{0x01, 0x01, 0x7e}, body...) // one local: i64
	fn = append(binary.AppendUvarint(nil, uint64(len(fn))), fn...)
	section := func(id byte, content ...byte) []byte {
		return append(append([]byte{id}, binary.AppendUvarint(nil, uint64(len(content)))...), content...)
	}
	var m []byte
	m = append(m, 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00)
	m = append(m, section(1, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7e)...) // (func (param i32) (result i64))
	m = append(m, section(3, 0x01, 0x00)...)
	m = append(m, section(5, 0x01, 0x00, 0x01)...)                // memory, min 1 page
	m = append(m, section(7, 0x01, 0x01, 'f', 0x00, 0x00)...)     // export "f"
	m = append(m, section(10, append([]byte{0x01}, fn...)...)...) // code
	return m
}

// appendSLEB appends v in the signed LEB128 of wasm's constants.
func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
