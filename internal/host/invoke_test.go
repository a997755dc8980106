package host

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// countingTool records whether it ran.
type countingTool struct{ calls int }

func (c *countingTool) Invoke(context.Context, tools.ToolInput) (tools.ToolResult, error) {
	c.calls++
	return tools.ToolResult{Status: tools.StatusPassed}, nil
}

func TestInvokeThroughCapsule(t *testing.T) {
	e := env(t)
	toolSet := tools.NewToolSet()
	toolSet.Add("echo", e.wasmTool(t, "echo", testguest.ToolrunGo, component.Limits{Deadline: time.Minute}))
	toolSet.Add("driver", e.wasmTool(t, "driver", testguest.DriverCanned, component.Limits{Deadline: time.Minute}))
	toolSet.Add("spin", e.wasmTool(t, "spin", "tool-spin", component.Limits{Deadline: time.Second}))
	sneaky := &countingTool{}
	toolSet.Add("undeclared", sneaky)
	call := e.probe(t, &Capsule{Allowlist: []string{"echo", "driver", "spin", "missing"}, Tools: toolSet})
	input := func(data string) []any { return []any{wit.Some(data), wit.None()} }

	t.Run("not in allowlist", func(t *testing.T) {
		got := call("invoke", "undeclared", input("x"))
		want := wit.Err("tool 'undeclared' is not declared in manifest allowlist")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
		if sneaky.calls != 0 {
			t.Fatalf("the undeclared tool ran %d times", sneaky.calls)
		}
	})
	t.Run("allowlisted, not staged", func(t *testing.T) {
		got := call("invoke", "missing", input("x"))
		if want := wit.Err("tool 'missing' is not available in this session"); !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
	})
	t.Run("wasm tool", func(t *testing.T) {
		got := call("invoke", "echo", []any{wit.Some("abc"), wit.None()})
		want := wit.Ok([]any{uint32(tools.StatusPassed), wit.Some("echo: abc"), wit.Some("cba"), wit.None(), false,
			[]any{[]any{"len", "3"}}})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
	})
	t.Run("driver double", func(t *testing.T) {
		got := call("invoke", "driver", input("{}")).(wit.ResultValue)
		if got.Err || got.Value.([]any)[2] != wit.Some(testguest.DriverCannedData) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("deadline comes back as err", func(t *testing.T) {
		got := call("invoke", "spin", input("x"))
		want := wit.Err("tool 'spin' exceeded its 1s execution deadline (capabilities.limits.deadline_seconds) and was interrupted")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
		// The capsule itself is fine afterwards.
		if got := call("invoke", "echo", input("ok")).(wit.ResultValue); got.Err {
			t.Fatalf("capsule unusable after a tool deadline: %#v", got)
		}
	})
}
