package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// An observer sees each step as it starts and ends, in order, with the
// text the trace leaves out, and none of the session's secrets: a tool
// that prints the key and a model that repeats it reach observers
// redacted.
func TestObserverSeesEachStep(t *testing.T) {
	const leak = `{"stop_reason":"end_turn","content":[{"type":"text","text":"the key is ` + secretKey + `"}]}`
	cases := []struct {
		name    string
		answers []tools.ToolResult
		tool    tools.Tool
		want    []string
	}{
		{"tool call then end", []tools.ToolResult{passed(callT), passed(endText)}, answering("ok"), []string{
			"task_start", "model_start:0", "model_end:0:tool_call:ok", "tool_start:0:t:wasm", "tool_end:0:t:ok",
			"model_start:1", "model_end:1:end_turn:ok", "task_end:ok"}},
		{"failing tool", []tools.ToolResult{passed(callT), passed(endText)}, toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
			return tools.ToolResult{Status: tools.StatusError, Summary: tools.Str("no")}, nil
		}), []string{"task_start", "model_start:0", "model_end:0:tool_call:ok", "tool_start:0:t:wasm", "tool_end:0:t:error",
			"model_start:1", "model_end:1:end_turn:ok", "task_end:ok"}},
		{"driver error", []tools.ToolResult{{Status: tools.StatusError, Summary: tools.Str("HTTP 500")}}, answering("ok"), []string{
			"task_start", "model_start:0", "model_end:0::error", "task_end:ok"}},
		{"secrets redacted", []tools.ToolResult{passed(callT), passed(leak)}, answering("printed " + secretKey), []string{
			"task_start", "model_start:0", "model_end:0:tool_call:ok", "tool_start:0:t:wasm", "tool_end:0:t:ok",
			"model_start:1", "model_end:1:end_turn:ok", "task_end:ok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStaged(t, nil)
			s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, redact.New(secretKey))
			set := tools.NewToolSet()
			set.Add("t", c.tool)
			var got []observe.Event
			obs := observe.Func(func(e observe.Event) { got = append(got, e) })
			if _, err := Run(context.Background(), Options{Staged: s, Driver: &driver{answers: c.answers}, Tools: set,
				Allowlist: []string{"t"}, Observer: obs}); err != nil && c.name != "driver error" {
				t.Fatal(err)
			}
			if kinds := eventKinds(got); !slices.Equal(kinds, c.want) {
				t.Errorf("events\n got  %v\n want %v", kinds, c.want)
			}
			for _, e := range got {
				if e.Time.IsZero() || e.TaskID == "" {
					t.Errorf("%s: no time or task id: %+v", e.Kind, e)
				}
				if strings.Contains(fmt.Sprintf("%+v", e), secretKey) {
					t.Errorf("%s carries the secret: %+v", e.Kind, e)
				}
			}
			if c.name == "tool call then end" {
				if e := got[1]; !strings.Contains(e.Input, "do it") || e.Name != "m" || e.InputTokens == 0 {
					t.Errorf("model_start: %+v", e)
				}
				if e := got[3]; e.Input != `{"q":"x"}` {
					t.Errorf("tool_start input %q", e.Input)
				}
				if e := got[4]; e.Output != "ok" {
					t.Errorf("tool_end output %q", e.Output)
				}
				if e := got[len(got)-1]; e.Output != "hi" || e.Turns != 2 {
					t.Errorf("task_end: %+v", e)
				}
			}
		})
	}
}

func eventKinds(events []observe.Event) []string {
	var out []string
	for _, e := range events {
		s := e.Kind.String()
		switch e.Kind {
		case observe.ModelStart:
			s += fmt.Sprintf(":%d", e.Turn)
		case observe.ModelEnd:
			s += fmt.Sprintf(":%d:%s:%s", e.Turn, e.Decision, e.Status)
		case observe.ToolStart:
			s += fmt.Sprintf(":%d:%s:%s", e.Turn, e.Name, e.ToolKind)
		case observe.ToolEnd:
			s += fmt.Sprintf(":%d:%s:%s", e.Turn, e.Name, e.Status)
		case observe.TaskEnd:
			s += ":" + e.Status
		}
		out = append(out, s)
	}
	return out
}
