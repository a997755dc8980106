package tools_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

func TestWasmToolComputes(t *testing.T) {
	e := env(t)
	for _, guest := range []string{testguest.ToolrunGo, testguest.ToolrunJS} {
		t.Run(guest, func(t *testing.T) {
			tool := e.wasmTool(t, "echo", guest, component.Limits{Deadline: time.Minute})
			if got := tool.Contract(); got != tools.ToolRun020 {
				t.Fatalf("contract = %s, want %s", got, tools.ToolRun020)
			}
			for range 2 { // a fresh store each call: the second behaves like the first
				r, err := tool.Invoke(context.Background(), tools.ToolInput{Data: tools.Str("hello, world"), LogPath: tools.Str("logs/run.log")})
				if err != nil {
					t.Fatal(err)
				}
				want := tools.ToolResult{Status: tools.StatusPassed, Summary: tools.Str("echo: hello, world"), Data: tools.Str("dlrow ,olleh"),
					DataPath: tools.Str("logs/run.log"), Metadata: []tools.Pair{{"len", "12"}}}
				if !reflect.DeepEqual(r, want) {
					t.Fatalf("result = %+v, want %+v", r, want)
				}
			}
		})
	}
}

func TestWasmToolDrivers(t *testing.T) {
	e := env(t)
	r, err := e.wasmTool(t, "drv", testguest.DriverMetadata, component.Limits{}).Invoke(context.Background(), tools.ToolInput{Data: tools.Str("{}")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != tools.StatusPassed || *r.Data != testguest.DriverMetadataData || len(r.Metadata) != 2 || r.Metadata[0] != (tools.Pair{"continuation_id", "cont-42"}) {
		t.Fatalf("driver-metadata result = %+v", r)
	}

	_, err = e.wasmTool(t, "drv", testguest.DriverTrap, component.Limits{}).Invoke(context.Background(), tools.ToolInput{})
	var te *tools.ToolError
	if !errors.As(err, &te) || te.Kind != tools.ToolTrapped || !strings.HasPrefix(err.Error(), "tool 'drv' trapped: ") {
		t.Fatalf("driver-trap error = %v", err)
	}
}

func TestWasmToolDeadline(t *testing.T) {
	e := env(t)
	tool := e.wasmTool(t, "spin", "tool-spin", component.Limits{Deadline: time.Second})
	start := time.Now()
	_, err := tool.Invoke(context.Background(), tools.ToolInput{})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("stopped after %s", d)
	}
	const want = "tool 'spin' exceeded its 1s execution deadline (capabilities.limits.deadline_seconds) and was interrupted"
	var te *tools.ToolError
	if err == nil || err.Error() != want || !errors.As(err, &te) || te.Kind != tools.ToolDeadline {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestWasmToolMemoryLimit(t *testing.T) {
	e := env(t)
	tool := e.wasmTool(t, "grow", "tool-grow", component.Limits{MaxMemoryBytes: 4 << 16, Deadline: time.Minute})
	_, err := tool.Invoke(context.Background(), tools.ToolInput{})
	const want = "tool 'grow' exceeded its configured resource limits: linear memory growth to 327680 bytes exceeds capabilities.limits.memory_bytes (262144)"
	var te *tools.ToolError
	if err == nil || err.Error() != want || !errors.As(err, &te) || te.Kind != tools.ToolResourceLimit {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestWasmToolMissingExport(t *testing.T) {
	e := env(t)
	_, err := e.wasmTool(t, "hooky", testguest.HookLifecycle, component.Limits{}).Invoke(context.Background(), tools.ToolInput{})
	const want = "tool component 'hooky' missing export murmur:tool/run@0.1.0#run; rebuild the artifact against the versioned WIT (run `mur install` for a default artifact, or rebuild from source otherwise)"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

type fakeIO struct {
	chunks []string
	prompt string
	answer string
}

func (f *fakeIO) EmitChunk(_ context.Context, text string, thinking bool) {
	if thinking {
		text = "thinking:" + text
	}
	f.chunks = append(f.chunks, text)
}

func (f *fakeIO) RequestInput(_ context.Context, prompt string) (string, error) {
	f.prompt = prompt
	return f.answer, nil
}

func TestToolChunksAndRequestInput(t *testing.T) {
	e := env(t)
	tool := e.wasmTool(t, "io", "tool-io", component.Limits{Deadline: time.Minute})
	ctx := context.Background()

	// Outside an A2A task: chunks vanish, request-input traps.
	r, err := tool.Invoke(ctx, tools.ToolInput{})
	if err != nil || r.Status != tools.StatusPassed || r.Data != nil {
		t.Fatalf("chunks only, no task: %+v, %v", r, err)
	}
	_, err = tool.Invoke(ctx, tools.ToolInput{Data: tools.Str("ask")})
	const want = "tool 'io' trapped: request-input is not available outside an A2A task context"
	if err == nil || err.Error() != want {
		t.Fatalf("request-input outside a task: %v, want %q", err, want)
	}

	// Inside one: both reach the TaskIO.
	io := &fakeIO{answer: "Ada"}
	r, err = tool.Invoke(tools.WithTaskIO(ctx, io), tools.ToolInput{Data: tools.Str("ask")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Data == nil || *r.Data != "Ada" || io.prompt != "name?" || !slices.Equal(io.chunks, []string{"hello", "thinking:hmm"}) {
		t.Fatalf("result %+v, io %+v", r, io)
	}
}

// A hostile tool answers tool-results the host cannot lift safely; each is
// refused (and no partial result handed on) with the error class of a
// guest at fault.
func TestWasmToolRefusesHostileResults(t *testing.T) {
	e := env(t)
	tool := e.wasmTool(t, "hostile", testguest.ToolHostile, component.Limits{MaxMemoryBytes: 1 << 20, Deadline: time.Minute})
	// The lifted-bytes total depends on where the lift stopped, so only
	// the text around it is compared.
	for _, tt := range []struct {
		mode      string
		kind      tools.ToolErrorKind
		want, end string
	}{
		{"s", tools.ToolTrapped, "tool 'hostile' trapped: canonical ABI trap: invalid enum discriminant 7 (3 cases)", ""},
		{"u", tools.ToolTrapped, "tool 'hostile' trapped: canonical ABI trap: invalid UTF-8 in string at 0x400", ""},
		{"p", tools.ToolTrapped, "tool 'hostile' trapped: canonical ABI trap: string at 0xfffffff0 (16 bytes) is out of bounds of memory (131072 bytes)", ""},
		{"b", tools.ToolResourceLimit, "tool 'hostile' exceeded its configured resource limits: values the host copied out of the guest reached ",
			" bytes, over capabilities.limits.memory_bytes (1048576)"},
	} {
		r, err := tool.Invoke(context.Background(), tools.ToolInput{Data: tools.Str(tt.mode)})
		var te *tools.ToolError
		if !errors.As(err, &te) || te.Kind != tt.kind || !strings.HasPrefix(err.Error(), tt.want) || !strings.HasSuffix(err.Error(), tt.end) ||
			(tt.end == "" && err.Error() != tt.want) {
			t.Errorf("%s: error = %v, want %q…%q", tt.mode, err, tt.want, tt.end)
		}
		if !reflect.DeepEqual(r, tools.ToolResult{}) {
			t.Errorf("%s: a refused result was handed on: %+v", tt.mode, r)
		}
	}
	// A well-formed answer still comes through.
	r, err := tool.Invoke(context.Background(), tools.ToolInput{})
	if err != nil || !reflect.DeepEqual(r, tools.ToolResult{Status: tools.StatusPassed}) {
		t.Fatalf("zeroed result: %+v, %v", r, err)
	}
}
