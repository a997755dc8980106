package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
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

// driver answers the i-th call with answers[i] (the last one repeated)
// and keeps every request.
type driver struct {
	mu       sync.Mutex
	answers  []tools.ToolResult
	requests []map[string]any
}

func passed(data string, md ...tools.Pair) tools.ToolResult {
	return tools.ToolResult{Status: tools.StatusPassed, Data: &data, Metadata: md}
}

func (d *driver) Invoke(_ context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var req map[string]any
	if err := decode(*in.Data, &req); err != nil {
		panic(err)
	}
	d.requests = append(d.requests, req)
	return d.answers[min(len(d.requests), len(d.answers))-1], nil
}

const (
	callT   = `{"stop_reason":"tool_call","content":[{"type":"tool_call","id":"1","name":"t","input":{"q":"x"}}]}`
	endText = `{"stop_reason":"end_turn","content":[{"type":"text","text":"hi"}]}`
)

// testStaged is a staged agent capsule in a temp dir with task.md and
// one WASM tool t.
func testStaged(t testing.TB, edit func(*manifest.Capsule)) stage.LoopView {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "task.md"), []byte("do it"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &manifest.Capsule{Name: "c", Version: "1", Lifecycle: manifest.DefaultLifecycle(),
		Artifacts: []manifest.ArtifactRef{{Name: "t", Runtime: manifest.RuntimeTool}},
		Inference: &manifest.Inference{Model: "m", MaxTurns: manifest.DefaultMaxTurns, MaxTaskReopens: manifest.DefaultMaxTaskReopens}}
	if edit != nil {
		edit(c)
	}
	return stage.LoopView{ID: "ses_test", Workdir: stage.NewWorkdir(dir, dir, nil), Capsule: c,
		Artifacts: []*stage.Artifact{{Name: "t", Role: stage.RoleTool, Kind: stage.KindWasm},
			{Name: "guide", Role: stage.RoleSkill, Kind: stage.KindSkill, SkillText: "Do it well."}}}
}

// readTrace parses the session's trace and checks the counts invariant
// on every session_end.
func readTrace(t testing.TB, s stage.LoopView) []trace.Line {
	t.Helper()
	f, err := os.Open(filepath.Join(s.SessionDir, trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	var inf, calls, shells float64
	for _, l := range lines {
		switch l.Type {
		case trace.TypeInference:
			inf++
		case trace.TypeToolCall:
			calls++
		case trace.TypeShell:
			shells++
		case trace.TypeSessionEnd:
			f := l.Fields
			if f["total_turns"] != inf || f["total_tool_calls"] != calls || f["total_shell_calls"] != shells {
				t.Errorf("counts invariant broken: session_end %v after %v inference, %v tool_call, %v shell lines", f, inf, calls, shells)
			}
		}
	}
	return lines
}

func types(lines []trace.Line) []string {
	var out []string
	for _, l := range lines {
		s := l.Type
		switch l.Type {
		case trace.TypeSessionEnd, trace.TypeTaskEnd:
			s += ":" + l.Fields["exit_status"].(string)
		case trace.TypeInference:
			s += ":" + l.Fields["decision"].(string)
		}
		out = append(out, s)
	}
	return out
}

func find(lines []trace.Line, typ string) []trace.Line {
	var out []trace.Line
	for _, l := range lines {
		if l.Type == typ {
			out = append(out, l)
		}
	}
	return slices.Clip(out)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
