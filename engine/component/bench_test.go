package component_test

// Benchmarks for issue 2 §9. bench/run.sh runs them next to the same
// measurements on jco transpile + Node and prints the ratios; run by hand:
//
//	go test -run '^$' -bench 'Call|Instantiate' ./component/
//	go test -run '^$' -bench 'Compile' -benchtime=3x ./component/
//
// Compiled guests are shared by the benchmarks (compileShared) so that b.Loop
// ramp-up and -count repetitions do not recompile the 12 MB JS guest; the
// shared engine writes to the package's cacheDir, which also serves as the
// warm cache of the ...Cached benchmarks.

import (
	"context"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// benchData is the 1 KiB tool input of the call benchmarks. bench/jco/bench.mjs
// builds the same string; keep them in step.
var benchData = strings.Repeat("0123456789abcdef", 64)

func benchInput() []any { return []any{wit.Some(benchData), wit.None()} }

var (
	sharedMu       sync.Mutex
	sharedEngine   *component.Engine
	sharedCompiled = map[string]*component.Component{}
)

// compileShared compiles guest once per test binary on an engine that is
// never closed (it lives until the process exits).
func compileShared(b *testing.B, guest string) *component.Component {
	b.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedEngine == nil {
		e, err := component.NewEngine(context.Background(), component.Config{CacheDir: cacheDir})
		if err != nil {
			b.Fatal(err)
		}
		sharedEngine = e
	}
	if c := sharedCompiled[guest]; c != nil {
		return c
	}
	c := compile(b, sharedEngine, guest)
	sharedCompiled[guest] = c
	return c
}

// benchHost is what instantiating guest needs from the host: a linker and
// a fresh store (with its cleanup). toolrun-go imports WASI 0.2; it gets a
// wasip2 context that grants nothing, like jco's preview2-shim with its
// preopens, arguments and environment cleared (bench/jco/bench.mjs).
type benchHost struct {
	linker   *component.Linker
	newStore func() (*component.Store, func())
	// preinit, when set, starts each store from a snapshot.
	preinit *component.Preinit
}

func newBenchHost(b testing.TB, guest string) benchHost {
	b.Helper()
	l := component.NewLinker()
	if guest != testguest.ToolrunGo {
		return benchHost{linker: l, newStore: func() (*component.Store, func()) { return &component.Store{}, func() {} }}
	}
	err := wasip2.Register(l, func(s *component.Store) *wasip2.Ctx {
		c, _ := s.Data.(*wasip2.Ctx)
		return c
	})
	if err != nil {
		b.Fatal(err)
	}
	return benchHost{linker: l, newStore: func() (*component.Store, func()) {
		wctx, err := wasip2.NewCtx(wasip2.Grants{})
		if err != nil {
			b.Fatal(err)
		}
		return &component.Store{Data: wctx}, func() { wctx.Close() }
	}}
}

// instance is a live instance plus everything needed to close it.
type instance struct {
	*component.Instance
	done func()
}

func (h benchHost) instantiate(ctx context.Context, c *component.Component) (instance, error) {
	return h.instantiateWith(ctx, c, component.Limits{})
}

// instantiateWith is instantiate into a store with limits lim.
func (h benchHost) instantiateWith(ctx context.Context, c *component.Component, lim component.Limits) (instance, error) {
	s, done := h.newStore()
	s.Limits, s.Preinit = lim, h.preinit
	inst, err := h.linker.Instantiate(ctx, c, s)
	if err != nil {
		done()
		return instance{}, err
	}
	return instance{inst, func() { inst.Close(ctx); done() }}, nil
}

// checkRun fails b unless f answers the benchmark input as the guest
// contract says (guests/README.md), so a broken guest cannot benchmark fast.
func checkRun(b testing.TB, f *component.Func) {
	b.Helper()
	v, err := f.Call(context.Background(), benchInput())
	if err != nil {
		b.Fatal(err)
	}
	rec, _ := v.([]any)
	rev := []rune(benchData)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	if len(rec) < 3 || !equalValues(rec[2], wit.Some(string(rev))) {
		b.Fatalf("run answered %#v", v)
	}
}

func BenchmarkCallJS(b *testing.B) { benchCall(b, testguest.ToolrunJS, component.Limits{}) }
func BenchmarkCallGo(b *testing.B) { benchCall(b, testguest.ToolrunGo, component.Limits{}) }

// The same calls under a deadline, as mur makes them: a call that can end
// early takes the path that can abandon a stuck guest.
func BenchmarkCallJSDeadline(b *testing.B) {
	benchCall(b, testguest.ToolrunJS, component.Limits{Deadline: time.Minute})
}
func BenchmarkCallGoDeadline(b *testing.B) {
	benchCall(b, testguest.ToolrunGo, component.Limits{Deadline: time.Minute})
}

// benchCall measures a warm call of run: instance, Func and the guest's
// allocator are already in use. The input value is built once; lowering it
// into the guest and lifting the result are part of every call.
func benchCall(b *testing.B, guest string, lim component.Limits) {
	ctx := context.Background()
	c := compileShared(b, guest)
	inst, err := newBenchHost(b, guest).instantiateWith(ctx, c, lim)
	if err != nil {
		b.Fatal(err)
	}
	defer inst.done()
	f, err := inst.Func(toolRun)
	if err != nil {
		b.Fatal(err)
	}
	checkRun(b, f)
	in := benchInput()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Call(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInstantiateJS(b *testing.B) { benchInstantiate(b, testguest.ToolrunJS, nil) }
func BenchmarkInstantiateGo(b *testing.B) { benchInstantiate(b, testguest.ToolrunGo, nil) }

// The same from a snapshot of the guest's initialisation (what mur's tool
// calls do): the first store initialises, the others restore.
func BenchmarkInstantiateJSPreinit(b *testing.B) {
	benchInstantiate(b, testguest.ToolrunJS, &component.Preinit{Key: "bench"})
}
func BenchmarkInstantiateGoPreinit(b *testing.B) {
	benchInstantiate(b, testguest.ToolrunGo, &component.Preinit{Key: "bench", Allow: benchInitReads})
}

// benchInitReads admits the WASI reads the Go guest's initialisation makes.
func benchInitReads(instance, _ string) bool {
	switch instance {
	case "wasi:cli/environment", "wasi:clocks/monotonic-clock", "wasi:random/random":
		return true
	}
	return false
}

// benchInstantiate measures instantiating an already compiled component
// (start functions included: the Go guest's _initialize runs here) and
// closing it again.
//
// After timing it reports the memory one live instance costs, measured with
// memPerInstance instances alive at once, each having served one call:
//
//   - heap-B/inst: growth of the Go heap (HeapAlloc after GC) per instance.
//     wazero allocates linear memories, tables, globals and its per-module
//     engine state on the Go heap, so this is the whole per-instance cost,
//     linear-memory slack from geometric growth included. Compiled machine
//     code is shared per component and not counted.
//   - linmem-B/inst: the smallest Limits.MaxMemoryBytes (in 64 KiB pages)
//     under which instantiation plus one call succeeds, i.e. the linear
//     memory the guest really needs; comparable to the byteLength of the
//     memories jco's instances export (bench/jco/bench.mjs).
func benchInstantiate(b *testing.B, guest string, pre *component.Preinit) {
	ctx := context.Background()
	c := compileShared(b, guest)
	h := newBenchHost(b, guest)
	h.preinit = pre
	b.ReportAllocs()
	for b.Loop() {
		inst, err := h.instantiate(ctx, c)
		if err != nil {
			b.Fatal(err)
		}
		inst.done()
	}
	b.ReportMetric(heapPerInstance(b, h, c), "heap-B/inst")
	b.ReportMetric(float64(linearMemoryNeeded(b, guest, c)), "linmem-B/inst")
}

const memPerInstance = 16

func heapPerInstance(b *testing.B, h benchHost, c *component.Component) float64 {
	ctx := context.Background()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	insts := make([]instance, 0, memPerInstance)
	for range memPerInstance {
		inst, err := h.instantiate(ctx, c)
		if err != nil {
			b.Fatal(err)
		}
		f, err := inst.Func(toolRun)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Call(ctx, benchInput()); err != nil {
			b.Fatal(err)
		}
		insts = append(insts, inst)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	for _, inst := range insts {
		inst.done()
	}
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / memPerInstance
}

// linearMemoryNeeded binary-searches the store memory cap, in pages, for
// the smallest one under which the guest instantiates and serves one call.
func linearMemoryNeeded(b *testing.B, guest string, c *component.Component) uint64 {
	const page = 64 << 10
	ctx := context.Background()
	h := newBenchHost(b, guest)
	fits := func(pages uint64) bool {
		s, done := h.newStore()
		defer done()
		s.Limits.MaxMemoryBytes = pages * page
		inst, err := h.linker.Instantiate(ctx, c, s)
		if err != nil {
			return false
		}
		defer inst.Close(ctx)
		f, err := inst.Func(toolRun)
		if err != nil {
			b.Fatal(err)
		}
		_, err = f.Call(ctx, benchInput())
		return err == nil
	}
	lo, hi := uint64(0), uint64(1) // lo does not fit, hi does
	for !fits(hi) {
		lo, hi = hi, hi*2
		if hi > 1<<16 { // 4 GiB: something other than memory fails
			b.Fatal("instantiation fails under every memory cap")
		}
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fits(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi * page
}

func BenchmarkCompileJSCold(b *testing.B)   { benchCompile(b, testguest.ToolrunJS, false) }
func BenchmarkCompileGoCold(b *testing.B)   { benchCompile(b, testguest.ToolrunGo, false) }
func BenchmarkCompileJSCached(b *testing.B) { benchCompile(b, testguest.ToolrunJS, true) }
func BenchmarkCompileGoCached(b *testing.B) { benchCompile(b, testguest.ToolrunGo, true) }

// benchCompile measures NewEngine + Compile, as a fresh process would do
// it. Cold: every iteration gets an empty cache dir, so wazero compiles
// every core module. Cached: every iteration opens a new engine on the
// shared, already warm cache dir, so the core modules are loaded from
// disk; decoding, elaboration and host-module compilation still run. A new
// engine is needed because wazero also keeps compiled modules in memory
// per compilation cache. Closing the engine is not timed.
//
// Cold compiles of the JS guest take seconds: run with -benchtime=3x.
func benchCompile(b *testing.B, guest string, cached bool) {
	ctx := context.Background()
	wasm := testguest.Bytes(b, guest)
	if cached {
		compileShared(b, guest) // warms cacheDir
	}
	for b.Loop() {
		dir := cacheDir
		if !cached {
			b.StopTimer()
			var err error
			if dir, err = os.MkdirTemp("", "mur-bench-cold-"); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		e, err := component.NewEngine(ctx, component.Config{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Compile(ctx, wasm); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		e.Close(ctx)
		if !cached {
			os.RemoveAll(dir)
		}
		b.StartTimer()
	}
}
