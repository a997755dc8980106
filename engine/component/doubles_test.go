package component_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const toolRun = "murmur:tool/run@0.2.0#run"

// cacheDir is shared by all tests of the module so each guest compiles once
// per test run (the JS guest takes seconds to compile cold).
var cacheDir string

func TestMain(m *testing.M) {
	// The uid 65534 re-run of the cache trust test uses caches of its own
	// and may not reach the checkout (a private clone) to find the shared one.
	if os.Getenv("MUR_TEST_CACHE_AS_NOBODY") != "" {
		os.Exit(m.Run())
	}
	dir, err := testguest.CacheDir()
	if err != nil {
		panic(err)
	}
	cacheDir = dir
	os.Exit(testguest.Main(m))
}

func newEngine(t testing.TB) *component.Engine {
	t.Helper()
	e, err := component.NewEngine(context.Background(), component.Config{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func compile(t testing.TB, e *component.Engine, guest string) *component.Component {
	t.Helper()
	c, err := e.Compile(context.Background(), testguest.Bytes(t, guest))
	if err != nil {
		t.Fatalf("compile %s: %v", guest, err)
	}
	return c
}

func instantiate(t testing.TB, e *component.Engine, guest string, s *component.Store) *component.Instance {
	t.Helper()
	ctx := context.Background()
	c := compile(t, e, guest)
	if s == nil {
		s = &component.Store{}
	}
	inst, err := component.NewLinker().Instantiate(ctx, c, s)
	if err != nil {
		t.Fatalf("instantiate %s: %v", guest, err)
	}
	return inst
}

func call(t testing.TB, inst *component.Instance, export string, args ...any) (any, error) {
	t.Helper()
	f, err := inst.Func(export)
	if err != nil {
		t.Fatalf("lookup %s: %v", export, err)
	}
	return f.Call(context.Background(), args...)
}

// toolResult builds the dynamic value of a murmur:tool/run@0.2.0 tool-result.
func toolResult(status uint32, data wit.OptionValue, metadata ...[]any) []any {
	md := []any{}
	for _, kv := range metadata {
		md = append(md, kv)
	}
	return []any{status, wit.None(), data, wit.None(), false, md, []any{}}
}

func TestDriverDoublesReturnTheirCannedRecords(t *testing.T) {
	e := newEngine(t)
	const (
		passed = 0
		errSt  = 2
	)
	input := func(data string) []any { return []any{wit.Some(data), wit.None()} }
	tests := []struct {
		guest string
		input string
		want  []any
	}{
		{"driver-canned", "hello", toolResult(passed, wit.Some(`{"stop_reason":"end_turn","content":[{"type":"text","text":"compacted summary"}]}`))},
		{"driver-error", "hello", toolResult(errSt, wit.Some(`{"stop_reason":"error","error":"unknown model: nope"}`))},
		{"driver-metadata", "hello", toolResult(passed, wit.Some(`{"stop_reason":"end_turn","content":[{"type":"text","text":"continued reply"}]}`),
			[]any{"continuation_id", "cont-42"}, []any{"state_effect", "read"})},
		{"driver-nodata", "hello", toolResult(passed, wit.None())},
		{"driver-switching", "no marker here", toolResult(passed, wit.Some(`{"stop_reason":"end_turn","content":[{"type":"text","text":"before marker"}]}`))},
		{"driver-switching", "feedback: SWITCH-MARKER!", toolResult(passed, wit.Some(`{"stop_reason":"end_turn","content":[{"type":"text","text":"after marker"}]}`))},
	}
	for _, tt := range tests {
		t.Run(tt.guest+"/"+tt.input, func(t *testing.T) {
			inst := instantiate(t, e, tt.guest, nil)
			for range 2 { // a second call sees the same answer
				got, err := call(t, inst, toolRun, input(tt.input))
				if err != nil {
					t.Fatal(err)
				}
				if !equalValues(got, tt.want) {
					t.Fatalf("got  %#v\nwant %#v", got, tt.want)
				}
			}
		})
	}
}

func TestTrappingDriverPoisonsItsInstance(t *testing.T) {
	inst := instantiate(t, newEngine(t), "driver-trap", nil)
	_, err := call(t, inst, toolRun, []any{wit.Some("x"), wit.None()})
	var trap *component.TrapError
	if !errors.As(err, &trap) || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("want a trap naming unreachable, got %v", err)
	}
	_, err = call(t, inst, toolRun, []any{wit.Some("x"), wit.None()})
	if !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("second call: want ErrPoisoned, got %v", err)
	}
}

func TestSpinningHookStoppedAtDeadline(t *testing.T) {
	inst := instantiate(t, newEngine(t), "hook-spin", &component.Store{Limits: component.Limits{Deadline: time.Second}})
	ctxArg := []any{"capsule", "0.1.0", "ses_1", "model", []any{}}
	start := time.Now()
	_, err := call(t, inst, "murmur:hook/lifecycle@0.2.0#on-session-start", ctxArg)
	elapsed := time.Since(start)
	var dl *component.DeadlineError
	if !errors.As(err, &dl) {
		t.Fatalf("want DeadlineError, got %v", err)
	}
	if !strings.Contains(err.Error(), "exceeded its 1s execution deadline") {
		t.Fatalf("wording: %v", err)
	}
	if elapsed > 5*time.Second {
		t.Fatalf("stopped after %s", elapsed)
	}
	if _, err := call(t, inst, "murmur:hook/lifecycle@0.2.0#on-session-end", ctxArg); !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("after deadline: want ErrPoisoned, got %v", err)
	}
}

func TestMissingExportsAreNamed(t *testing.T) {
	e := newEngine(t)
	tests := []struct {
		guest, export, want string
	}{
		{"hook-missing", "murmur:hook/lifecycle@0.2.0#on-session-start",
			`missing export murmur:hook/lifecycle@0.2.0#on-session-start: instance murmur:hook/lifecycle@0.2.0 has no function "on-session-start"`},
		{"hook-unversioned", "murmur:hook/lifecycle@0.2.0#on-session-start",
			"component does not export instance murmur:hook/lifecycle@0.2.0 (it exports murmur:hook/lifecycle)"},
		{"driver-canned", "run", "component has no exported function run (it exports murmur:tool/run@0.2.0)"},
	}
	for _, tt := range tests {
		t.Run(tt.guest, func(t *testing.T) {
			inst := instantiate(t, e, tt.guest, nil)
			_, err := inst.Func(tt.export)
			var le *component.LinkError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant a LinkError containing %q", err, tt.want)
			}
		})
	}
}

func TestVersionedHookExportsResolve(t *testing.T) {
	inst := instantiate(t, newEngine(t), "hook-lifecycle", nil)
	for _, fn := range []string{"on-session-start", "on-inference", "on-tool-call", "on-shell", "on-compaction", "on-session-end"} {
		if _, err := call(t, inst, "murmur:hook/lifecycle@0.2.0#"+fn); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
	}
}

func TestCanceledCallStopsGuest(t *testing.T) {
	inst := instantiate(t, newEngine(t), "hook-spin", nil)
	f, err := inst.Func("murmur:hook/lifecycle@0.2.0#on-session-start")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = f.Call(ctx, []any{"capsule", "0.1.0", "ses_1", "model", []any{}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	var dl *component.DeadlineError
	if errors.As(err, &dl) {
		t.Fatal("a cancellation is not a deadline")
	}
}

// A guest spinning in a loop must not stall the Go runtime: a garbage
// collection needs every goroutine at a safe point, and the timer that
// interrupts the guest must get to run.
func TestSpinningGuestLetsGCRun(t *testing.T) {
	inst := instantiate(t, newEngine(t), "hook-spin", &component.Store{Limits: component.Limits{Deadline: 2 * time.Second}})
	f, err := inst.Func("murmur:hook/lifecycle@0.2.0#on-session-start")
	if err != nil {
		t.Fatal(err)
	}
	// Collect over and over until the call returns, so collections start
	// while the guest spins whenever it gets there; report the slowest.
	stop := make(chan struct{})
	gcDone := make(chan time.Duration, 1)
	go func() {
		var slowest time.Duration
		for {
			select {
			case <-stop:
				gcDone <- slowest
				return
			default:
			}
			start := time.Now()
			runtime.GC()
			slowest = max(slowest, time.Since(start))
		}
	}()
	_, err = f.Call(context.Background(), []any{"capsule", "0.1.0", "ses_1", "model", []any{}})
	close(stop)
	var dl *component.DeadlineError
	if !errors.As(err, &dl) {
		t.Fatalf("want DeadlineError, got %v", err)
	}
	select {
	case took := <-gcDone:
		if took > time.Second {
			t.Fatalf("garbage collection waited %s for the spinning guest", took)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("garbage collection never finished")
	}
}
