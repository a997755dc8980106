package component_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// A warm compile takes the rewritten modules from their memo entries in
// place: neither the memo's bytes nor wazero's decoded bodies and data
// segments are copied into the heap (diskmemo.Memo.Map,
// experimental.WithImmutableBinary). Either copy alone costs more than
// the modules' size in allocations (6.4 and 6.5 MB for the scripted
// driver's 3.9 MB, measured with each reverted); in place, 2.4 MB.
func TestWarmCompileDoesNotCopyTheRewrittenModules(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "cache")
	wasm := testguest.Bytes(t, testguest.ScriptedGo)
	compile := func() *component.Engine { return testguest.CompileIn(t, dir, wasm) }
	if err := compile().Close(ctx); err != nil {
		t.Fatal(err)
	}
	var rewritten int64
	entries, err := os.ReadDir(filepath.Join(dir, "mur-rewrites"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			rewritten += fi.Size()
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e := compile()
	runtime.ReadMemStats(&after)
	defer e.Close(ctx)
	allocated := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("a warm compile allocated %d bytes; the rewritten modules are %d", allocated, rewritten)
	if allocated > rewritten {
		t.Errorf("a warm compile allocated %d bytes, more than the %d bytes of rewritten modules: they were copied", allocated, rewritten)
	}
}
