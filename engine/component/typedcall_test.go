package component_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

func typedRun(t testing.TB, inst *component.Instance) *component.Typed[toolInput, toolOutput] {
	t.Helper()
	f, err := inst.Func(toolRun)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := component.TypedFunc[toolInput, toolOutput](f)
	if err != nil {
		t.Fatal(err)
	}
	return tf
}

func strPtr(s string) *string { return &s }

func TestTypedCall(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	// driver-switching reads the input: its answer shows the typed
	// lowering reached the guest.
	inst := instantiate(t, e, "driver-switching", nil)
	run := typedRun(t, inst)
	for _, tt := range []struct{ data, want string }{
		{"plain", "before marker"},
		{"xx SWITCH-MARKER xx", "after marker"},
	} {
		got, err := run.Call(ctx, toolInput{Data: &tt.data})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != 0 || got.Data == nil || !strings.Contains(*got.Data, tt.want) {
			t.Fatalf("%q: got %+v", tt.data, got)
		}
	}

	// driver-metadata answers with a list of tuples; the typed result
	// agrees with Func.Call's dynamic one.
	inst = instantiate(t, e, "driver-metadata", nil)
	run = typedRun(t, inst)
	in := toolInput{Data: strPtr("hi"), LogPath: strPtr("log")}
	got, err := run.Call(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := call(t, inst, toolRun, []any{wit.Some("hi"), wit.Some("log")})
	if err != nil {
		t.Fatal(err)
	}
	want := toolOutput{
		Status:      0,
		Data:        strPtr(`{"stop_reason":"end_turn","content":[{"type":"text","text":"continued reply"}]}`),
		Truncated:   false,
		Metadata:    []struct{ K, V string }{{"continuation_id", "cont-42"}, {"state_effect", "read"}},
		Attachments: []attachment{},
	}
	if dyn.([]any)[1] != wit.None() {
		want.Summary = strPtr(dyn.([]any)[1].(wit.OptionValue).Value.(string))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v (dynamic %#v)", got, want, dyn)
	}
}

// A typed call whose guest calls host functions on the way (a string
// parameter and result, as Typed[string, string]).
func TestTypedCallWithImports(t *testing.T) {
	var logged []string
	c := compile(t, newEngine(t), "engine-imports")
	inst, err := greeter(t, "test:host/greet@0.2.6", &logged).Instantiate(context.Background(), c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := inst.Func("run")
	if err != nil {
		t.Fatal(err)
	}
	tf, err := component.TypedFunc[string, string](f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tf.Call(context.Background(), "wörld")
	if err != nil || got != "hello, wörld" || len(logged) != 1 || logged[0] != got {
		t.Fatalf("got %q, %v; logged %q", got, err, logged)
	}
	if _, err := component.TypedFunc[[]byte, string](f); err == nil || !strings.Contains(err.Error(), `parameter "name": WIT string as Go []uint8`) {
		t.Fatalf("[]byte for string: %v", err)
	}
}

// A typed call of a function without parameters or result.
func TestTypedCallNoParamsNoResult(t *testing.T) {
	inst := instantiate(t, newEngine(t), "hook-lifecycle", nil)
	f, err := inst.Func("murmur:hook/lifecycle@0.2.0#on-session-end")
	if err != nil {
		t.Fatal(err)
	}
	tf, err := component.TypedFunc[struct{}, struct{}](f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tf.Call(context.Background(), struct{}{}); err != nil {
		t.Fatal(err)
	}
	if _, err := component.TypedFunc[struct{}, string](f); err == nil || !strings.Contains(err.Error(), "no result, want R struct{}, got string") {
		t.Fatalf("string result for no result: %v", err)
	}
}

func TestTypedFuncChecksTypes(t *testing.T) {
	inst := instantiate(t, newEngine(t), "driver-canned", nil)
	f, err := inst.Func(toolRun)
	if err != nil {
		t.Fatal(err)
	}
	type badInput struct {
		Data    []byte
		LogPath *string
	}
	type badOutput struct {
		Status      int
		Summary     *string
		Data        *string
		DataPath    *string
		Truncated   bool
		Metadata    []struct{ K, V string }
		Attachments []attachment
	}
	_, err = component.TypedFunc[badInput, toolOutput](f)
	var ce *canon.CodecError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `parameter "input"`) ||
		!strings.Contains(err.Error(), `record field "data" (Go field Data): Go []uint8 cannot represent WIT option<string>`) {
		t.Errorf("bad input: %v", err)
	}
	_, err = component.TypedFunc[toolInput, badOutput](f)
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "result") ||
		!strings.Contains(err.Error(), `record field "status" (Go field Status): Go int cannot represent WIT status`) {
		t.Errorf("bad output: %v", err)
	}
	if _, err := component.TypedFunc[string, toolOutput](f); err == nil {
		t.Error("string for a record parameter accepted")
	}
}

func TestTypedCallTrapPoisons(t *testing.T) {
	inst := instantiate(t, newEngine(t), "driver-trap", nil)
	run := typedRun(t, inst)
	_, err := run.Call(context.Background(), toolInput{Data: strPtr("x")})
	var trap *component.TrapError
	if !errors.As(err, &trap) || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("want a trap naming unreachable, got %v", err)
	}
	if _, err := run.Call(context.Background(), toolInput{}); !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("second call: want ErrPoisoned, got %v", err)
	}
	// The dynamic path sees the same poisoned store.
	if _, err := call(t, inst, toolRun, []any{wit.None(), wit.None()}); !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("dynamic call: want ErrPoisoned, got %v", err)
	}
}

// A bad host value is the host's error: it does not poison the instance.
func TestTypedCallValueError(t *testing.T) {
	inst := instantiate(t, newEngine(t), "driver-canned", nil)
	run := typedRun(t, inst)
	_, err := run.Call(context.Background(), toolInput{Data: strPtr("\xff")})
	var ve *canon.ValueError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `param "input": record field "data": some: want string`) {
		t.Fatalf("want a ValueError, got %v", err)
	}
	if _, err := run.Call(context.Background(), toolInput{Data: strPtr("ok")}); err != nil {
		t.Fatalf("after a ValueError: %v", err)
	}
}

// The result type falls back to the dynamic value (wit.ResultValue) and
// the deadline applies as for Func.Call.
func TestTypedCallDeadline(t *testing.T) {
	inst := instantiate(t, newEngine(t), "hook-spin", &component.Store{Limits: component.Limits{Deadline: time.Second}})
	f, err := inst.Func("murmur:hook/lifecycle@0.2.0#on-session-start")
	if err != nil {
		t.Fatal(err)
	}
	type sessionContext struct {
		CapsuleName, CapsuleVersion, SessionID, Model string
		Capabilities                                  []string
	}
	tf, err := component.TypedFunc[sessionContext, wit.ResultValue](f)
	if err != nil {
		t.Fatal(err)
	}
	_, err = tf.Call(context.Background(), sessionContext{"capsule", "0.1.0", "ses_1", "model", nil})
	var dl *component.DeadlineError
	if !errors.As(err, &dl) {
		t.Fatalf("want DeadlineError, got %v", err)
	}
	if _, err := tf.Call(context.Background(), sessionContext{}); !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("after deadline: want ErrPoisoned, got %v", err)
	}
}

// BenchmarkTypedCall compares Func.Call and Typed.Call of run on the Go
// guest with the 1 KiB input of the call benchmarks.
func BenchmarkTypedCall(b *testing.B) {
	ctx := context.Background()
	l := component.NewLinker()
	err := wasip2.Register(l, func(s *component.Store) *wasip2.Ctx {
		c, _ := s.Data.(*wasip2.Ctx)
		return c
	})
	if err != nil {
		b.Fatal(err)
	}
	wctx, err := wasip2.NewCtx(wasip2.Grants{})
	if err != nil {
		b.Fatal(err)
	}
	defer wctx.Close()
	inst, err := l.Instantiate(ctx, compile(b, newEngine(b), testguest.ToolrunGo), &component.Store{Data: wctx})
	if err != nil {
		b.Fatal(err)
	}
	defer inst.Close(ctx)
	data := strings.Repeat("0123456789abcdef", 64)
	b.Run("dynamic", func(b *testing.B) {
		f, err := inst.Func(toolRun)
		if err != nil {
			b.Fatal(err)
		}
		in := []any{wit.Some(data), wit.None()}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.Call(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed", func(b *testing.B) {
		run := typedRun(b, inst)
		in := toolInput{Data: &data}
		out, err := run.Call(ctx, in)
		if err != nil || out.Data == nil || len(*out.Data) != len(data) || out.Metadata[0].V != "1024" {
			b.Fatalf("run answered %+v, %v", out, err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := run.Call(ctx, in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
