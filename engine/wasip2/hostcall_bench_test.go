package wasip2

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The preview1 adapter writes stdout 4 KiB per blocking-write-and-flush
// call, and reads files through input-stream.read: the host's own share of
// those calls (no engine) should not allocate per byte.

func stdoutWriter(t testing.TB) (hostFn, *Ctx, []any) {
	h := testHost(t)
	c, err := NewCtx(Grants{Stdout: Output{W: io.Discard}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	out := c.newRes(h.t.outputStream, &outputStream{s: &stdoutStream{w: c.stdout}})
	return h.record["wasi:io/streams#[method]output-stream.blocking-write-and-flush"], c, []any{out, make([]byte, 4096)}
}

func TestHostStreamCallsDoNotAllocate(t *testing.T) {
	f, c, args := stdoutWriter(t)
	if a := testing.AllocsPerRun(100, func() { f(context.Background(), c, args) }); a != 0 {
		t.Errorf("blocking-write-and-flush: %v allocations per call", a)
	}

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o644)
	file, err := os.Open(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	h := testHost(t)
	in := c.newRes(h.t.inputStream, &inputStream{s: &fileIn{f: newSharedFile(file, newFDBudget(0))}})
	read := h.record["wasi:io/streams#[method]input-stream.read"]
	rargs := []any{in, uint64(64 << 10)}
	read(context.Background(), c, rargs) // sizes the scratch buffer
	// Two small allocations are left, boxing the result and the slice in
	// it for the engine's []any values; the 64 KiB come from scratch.
	if a := testing.AllocsPerRun(10, func() { read(context.Background(), c, rargs) }); a > 2 {
		t.Errorf("input-stream.read: %v allocations per call", a)
	}
}

// BenchmarkHostWrite4K is the host's share of one 4 KiB stdout write.
func BenchmarkHostWrite4K(b *testing.B) {
	f, c, args := stdoutWriter(b)
	b.SetBytes(4096)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f(context.Background(), c, args); err != nil {
			b.Fatal(err)
		}
	}
}
