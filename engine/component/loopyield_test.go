package component_test

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// The patched compiler checks every loop header against a counter and,
// when it runs out, leaves to Go through a trampoline that must bring back
// every register (RATIONALE.md, "Warm calls"). loopYieldModule keeps
// eight i64 and four f64 values live around its loop, more than fit the
// registers that are not saved by a call; yielding every few iterations,
// the result must be the interpreter's.
func TestLoopYieldKeepsRegisters(t *testing.T) {
	features := api.CoreFeaturesV2
	if !wazero.LoopYieldSupported(features) {
		t.Skip("the compiler has no loop yield checks on this platform")
	}
	ctx := context.Background()
	bin := loopYieldModule()
	const n = 100_000
	for _, every := range []uint32{1, 7, 1000} {
		// A corrupted counter would loop for ever: more yields than
		// iterations end the call.
		yields := 0
		yctx := experimental.WithLoopYield(ctx, experimental.LoopYield{Every: every, Yield: func(context.Context) error {
			if yields++; yields > n {
				return errors.New("more yields than iterations")
			}
			return nil
		}})
		compiled := instantiateWith(t, yctx, wazero.NewRuntimeConfigCompiler().WithCoreFeatures(features), bin)
		interpreted := instantiateWith(t, ctx, wazero.NewRuntimeConfigInterpreter().WithCoreFeatures(features), bin)
		for _, name := range []string{"run", "runCall", "runLive"} {
			yields = 0
			want, err := interpreted.ExportedFunction(name).Call(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			got, err := compiled.ExportedFunction(name).Call(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != want[0] {
				t.Fatalf("%s, every %d: compiled %#x, interpreted %#x", name, every, got[0], want[0])
			}
			if min := n/(int(every)+1) - 1; yields < min {
				t.Fatalf("%s, every %d: %d yields in %d iterations, want at least %d", name, every, yields, n, min)
			}
		}
	}
}

// The guests' real loops, under yields every few iterations, still answer
// right: the check's path saves and restores wherever the allocator put
// the execution context, which a small loop does not reach (a real guest
// has the context outside RAX at some of its loop headers).
func TestGuestsAnswerUnderFrequentYields(t *testing.T) {
	if !wazero.LoopYieldSupported(api.CoreFeaturesV2) {
		t.Skip("the compiler has no loop yield checks on this platform")
	}
	for _, tc := range []struct {
		guest string
		every uint32
	}{{testguest.ToolrunGo, 1}, {testguest.ToolrunJS, 97}} {
		t.Run(tc.guest, func(t *testing.T) {
			ctx := context.Background()
			e, err := component.NewEngineYieldingEvery(ctx, component.Config{CacheDir: cacheDir}, tc.every)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(ctx)
			inst, err := newBenchHost(t, tc.guest).instantiate(ctx, compile(t, e, tc.guest))
			if err != nil {
				t.Fatal(err)
			}
			defer inst.done()
			f, err := inst.Func(toolRun)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				checkRun(t, f)
			}
		})
	}
}

// A yield that fails ends the call with its error, as a host function's
// trap would, and the next call on the same function runs again.
func TestLoopYieldErrorEndsCall(t *testing.T) {
	features := api.CoreFeaturesV2
	if !wazero.LoopYieldSupported(features) {
		t.Skip("the compiler has no loop yield checks on this platform")
	}
	ctx := context.Background()
	stop := errors.New("stop")
	fail := true
	yctx := experimental.WithLoopYield(ctx, experimental.LoopYield{Every: 100, Yield: func(context.Context) error {
		if fail {
			return stop
		}
		return nil
	}})
	mod := instantiateWith(t, yctx, wazero.NewRuntimeConfigCompiler().WithCoreFeatures(features), loopYieldModule())
	f := mod.ExportedFunction("run")
	if _, err := f.Call(ctx, 1_000_000); !errors.Is(err, stop) {
		t.Fatalf("want the yield's error, got %v", err)
	}
	fail = false
	if _, err := f.Call(ctx, 1_000_000); err != nil {
		t.Fatalf("the call after a failed yield: %v", err)
	}
}

func instantiateWith(t *testing.T, ctx context.Context, cfg wazero.RuntimeConfig, bin []byte) api.Module {
	t.Helper()
	r := wazero.NewRuntimeWithConfig(ctx, cfg)
	t.Cleanup(func() { r.Close(context.Background()) })
	mod, err := r.Instantiate(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

// loopYieldModule encodes run(n i32) i64: a loop of n iterations updating
// eight i64 locals (1-8) and four f64 locals (9-12), each from the others,
// then a hash of all twelve; runLive, the same with a call to step in
// the loop; and runCall (below).
func loopYieldModule() []byte {
	code := liveLoop(false)

	m := []byte("\x00asm\x01\x00\x00\x00")
	sec := func(id byte, content []byte) {
		m = append(m, id)
		m = binary.AppendUvarint(m, uint64(len(content)))
		m = append(m, content...)
	}
	// step(x i64) i64 and runCall(n i32) i64, whose loop carries its
	// value through a call, which clobbers the registers a call may: the
	// check must still bring them all back.
	step := []byte{0, 0x20, 0, 0x42}
	step = appendSLEB(step, 6364136223846793005)
	step = append(step, 0x7e, 0x42)
	step = appendSLEB(step, 1442695040888963407)
	step = append(step, 0x7c, 0x0b)
	runCall := []byte{1, 1, 0x7e,
		0x03, 0x40, // loop
		0x20, 1, 0x10, 1, 0x20, 0, 0xad, 0x85, 0x21, 1, // acc = step(acc) ^ u64(n)
		0x20, 0, 0x41, 1, 0x6b, 0x22, 0, 0x0d, 0, // br_if (n = n - 1)
		0x0b, 0x20, 1, 0x0b}
	codes := []byte{4}
	for _, c := range [][]byte{code, step, runCall, liveLoop(true)} {
		codes = binary.AppendUvarint(codes, uint64(len(c)))
		codes = append(codes, c...)
	}
	sec(1, []byte{2, 0x60, 1, 0x7f, 1, 0x7e, 0x60, 1, 0x7e, 1, 0x7e})
	sec(3, []byte{4, 0, 1, 0, 0})
	sec(7, []byte{3, 3, 'r', 'u', 'n', 0, 0, 7, 'r', 'u', 'n', 'C', 'a', 'l', 'l', 0, 2, 7, 'r', 'u', 'n', 'L', 'i', 'v', 'e', 0, 3})
	sec(10, codes)
	return m
}

// liveLoop is the code of run (or of runLive, withCall).
func liveLoop(withCall bool) []byte {
	var body []byte
	op := func(b ...byte) { body = append(body, b...) }
	i64const := func(v int64) { op(0x42); body = appendSLEB(body, v) }
	f64const := func(v float64) { op(0x44); body = binary.LittleEndian.AppendUint64(body, math.Float64bits(v)) }
	get := func(i byte) { op(0x20, i) }
	set := func(i byte) { op(0x21, i) }
	const (
		i64Add, i64Sub, i64Mul, i64Xor = 0x7c, 0x7d, 0x7e, 0x85
		f64Add, f64Sub, f64Mul         = 0xa0, 0xa1, 0xa2
	)
	op(0x03, 0x40) // loop
	if withCall {
		get(1)
		op(0x10, 1) // call step
		set(1)
	}
	get(1)
	i64const(1)
	op(i64Add)
	set(1)
	get(2)
	get(1)
	op(i64Xor)
	set(2)
	get(3)
	get(2)
	op(i64Add)
	set(3)
	get(4)
	i64const(31)
	op(i64Mul)
	get(3)
	op(i64Add)
	set(4)
	get(5)
	get(1)
	op(i64Sub)
	set(5)
	get(6)
	get(5)
	op(i64Add)
	set(6)
	get(7)
	get(6)
	op(i64Xor)
	set(7)
	get(8)
	get(7)
	op(i64Add)
	set(8)
	get(9)
	f64const(1.5)
	op(f64Add)
	set(9)
	get(10)
	f64const(0.999)
	op(f64Mul)
	get(9)
	op(f64Add)
	set(10)
	get(11)
	get(10)
	op(f64Add)
	set(11)
	get(12)
	f64const(0.25)
	op(f64Sub)
	set(12)
	get(0)
	op(0x41, 1)
	op(0x6b)
	op(0x22, 0) // n = n - 1 (tee)
	op(0x0d, 0) // br_if loop
	op(0x0b)    // end loop
	get(1)
	for i := byte(2); i <= 8; i++ {
		i64const(int64(i))
		op(i64Mul)
		get(i)
		op(i64Add)
	}
	for i := byte(9); i <= 12; i++ {
		get(i)
		op(0xbd)
		op(i64Xor) // i64.reinterpret_f64
	}
	op(0x0b)

	code := []byte{2, 8, 0x7e, 4, 0x7c} // locals: 8 i64, 4 f64
	return append(code, body...)
}
