package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/manifest"
	"github.com/mur-go/mur/stage"
	"github.com/mur-go/mur/tools"
)

// toolFunc is a Tool from a function.
type toolFunc func(context.Context, tools.ToolInput) (tools.ToolResult, error)

func (f toolFunc) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	return f(ctx, in)
}

func answering(data string) toolFunc {
	return func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
		return tools.ToolResult{Status: tools.StatusPassed, Data: &data}, nil
	}
}

const callTool = `{"stop_reason":"tool_call","content":[{"type":"tool_call","id":"1","name":"t","input":{}}]}`

func TestRunOutcomes(t *testing.T) {
	ctxCancelled, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped by the test"))
	cases := []struct {
		name   string
		ctx    context.Context
		driver tools.Tool
		turns  int
		kind   Kind
		result string
	}{
		{"end turn", context.Background(), answering(`{"stop_reason":"end_turn","content":[{"type":"text","text":"hi"}]}`), 1, 0, "hi"},
		{"max_tokens ends with its text", context.Background(), answering(`{"stop_reason":"max_tokens","content":[{"type":"text","text":"cut"}]}`), 1, 0, "cut"},
		{"default max turns", context.Background(), answering(callTool), 10, KindMaxTurns, "error: inference loop exceeded 10 turns"},
		{"tool_call without calls", context.Background(), answering(`{"stop_reason":"tool_call","content":[]}`), 1, KindResponse,
			"error: response stop_reason=tool_call but no tool_call blocks were present"},
		{"no data", context.Background(), toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
			return tools.ToolResult{Status: tools.StatusPassed}, nil
		}), 1, KindResponse, "error: driver returned no data"},
		{"driver trap", context.Background(), toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
			return tools.ToolResult{}, errors.New("tool 'd' trapped: unreachable")
		}), 1, KindDriver, "error: driver invocation failed: tool 'd' trapped: unreachable"},
		{"cancelled", ctxCancelled, answering(callTool), 0, KindCancelled, "error: session cancelled (stopped by the test)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "task.md"), []byte("do it"), 0o644); err != nil {
				t.Fatal(err)
			}
			s := &stage.Session{AccessibleDir: dir, SessionDir: dir, OutDir: filepath.Join(dir, "out"), LogsDir: filepath.Join(dir, "logs"),
				Capsule:   &manifest.Capsule{Name: "c", Version: "1", Inference: &manifest.Inference{Model: "m", MaxTurns: manifest.DefaultMaxTurns}},
				Artifacts: []*stage.Artifact{{Name: "t", Role: stage.RoleTool, Kind: stage.KindWasm}}}
			set := tools.NewToolSet()
			set.Add("t", answering("ok"))
			out, err := Run(c.ctx, Options{Session: s, Driver: c.driver, Tools: set, Allowlist: []string{"t"}})
			var e *Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || e.Kind != c.kind) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			if out.Turns != c.turns {
				t.Errorf("turns = %d, want %d", out.Turns, c.turns)
			}
			if log, err := os.ReadFile(filepath.Join(dir, "logs", "bootstrap.log")); c.ctx.Err() == nil && string(log) != "Installed tools (JSON):\n[]\n" {
				t.Errorf("logs/bootstrap.log = %q (%v), want the empty inventory", log, err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "out", "result.txt"))
			if err != nil || !strings.HasPrefix(string(b), c.result) {
				t.Errorf("out/result.txt = %q (%v), want %q", b, err, c.result)
			}
		})
	}
}
