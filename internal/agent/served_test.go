package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/serve/mcp"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// servedCall is one call a test makes through Served.Call.
type servedCall struct {
	name, input string
	// cancel cancels this call's own context before it is made.
	cancel bool
}

type servedAnswer struct {
	text    string
	isError bool
}

// serveCalls runs a served session of s, makes each call through
// Served.Call and returns as the client leaving does.
func serveCalls(t *testing.T, s stage.LoopView, o Options, calls []servedCall) ([]servedAnswer, []mcp.Tool, []string, error) {
	t.Helper()
	h := &recHooks{}
	o.Staged, o.Hooks = s, h
	var got []servedAnswer
	var listed []mcp.Tool
	err := ServeTools(context.Background(), o, func(ctx context.Context, sv *Served) error {
		listed = sv.Tools()
		for _, c := range calls {
			cctx, cancel := context.WithCancel(ctx)
			if c.cancel {
				cancel()
			}
			text, isError := sv.Call(cctx, c.name, c.input)
			cancel()
			got = append(got, servedAnswer{text, isError})
			if ctx.Err() != nil {
				return nil
			}
		}
		return nil
	})
	return got, listed, h.calls, err
}

func TestServeToolsDispatchesAsTheLoop(t *testing.T) {
	secrets := redact.New("sekret-value-1234")
	s := testStaged(t, nil)
	s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, secrets)
	for _, a := range s.Artifacts {
		a.Manifest = &manifest.Artifact{Name: a.Name, Runtime: string(a.Role), Description: "the " + a.Name}
	}
	set := tools.NewToolSet()
	set.Add("t", toolFunc(func(_ context.Context, in tools.ToolInput) (tools.ToolResult, error) {
		data := "got " + *in.Data + " and sekret-value-1234"
		return tools.ToolResult{Status: tools.StatusPassed, Data: &data}, nil
	}))
	got, served, hooks, err := serveCalls(t, s, Options{Tools: set, Allowlist: []string{"t"}},
		[]servedCall{{name: "t", input: `{"q":"sekret-value-1234"}`}, {name: "guide", input: "{}"}, {name: "undeclared", input: "{}"}})
	var listed, skills []string
	for _, tool := range served {
		listed = append(listed, tool.Name)
		if tool.Skill {
			skills = append(skills, tool.Name)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed, []string{"guide", "t"}) || !slices.Equal(skills, []string{"guide"}) {
		t.Errorf("served tools %v (skills %v), want guide (a skill) and t", listed, skills)
	}
	want := []servedAnswer{
		{`got {"q":"` + redact.Marker + `"} and ` + redact.Marker, false},
		{"Do it well.", false},
		{tools.ErrNotDeclared("undeclared").Error(), true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("answers\n%+v\nwant\n%+v", got, want)
	}
	if want := []string{"session-start", "tool-call:t:ok", "tool-call:guide:ok", "tool-call:undeclared:error", "session-end", "close"}; !slices.Equal(hooks, want) {
		t.Errorf("hooks %v, want %v", hooks, want)
	}
	lines := readTrace(t, s)
	if want := []string{"session_start", "tool_call", "skill_call", "tool_call", "session_end:ok"}; !slices.Equal(types(lines), want) {
		t.Fatalf("trace %v, want %v", types(lines), want)
	}
	if mt := lines[0].Fields["max_turns"]; mt != 0.0 {
		t.Errorf("session_start max_turns %v, want 0: no model turn", mt)
	}
	call := find(lines, "tool_call")[0].Fields
	if call["turn"] != 0.0 || call["tool_name"] != "t" || call["status"] != "ok" {
		t.Errorf("tool_call %v", call)
	}
	if raw := readFile(t, s.SessionDir+"/trace.jsonl"); strings.Contains(raw, "sekret-value-1234") {
		t.Errorf("the trace holds the session's secret:\n%s", raw)
	}
}

// A call whose own request ends is recorded cancelled and the session
// goes on; a stopped session ends cancelled.
func TestServeToolsCancellation(t *testing.T) {
	s := testStaged(t, nil)
	set := tools.NewToolSet()
	set.Add("t", toolFunc(func(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
		if err := ctx.Err(); err != nil {
			return tools.ToolResult{}, err
		}
		data := "ran"
		return tools.ToolResult{Status: tools.StatusPassed, Data: &data}, nil
	}))
	got, _, _, err := serveCalls(t, s, Options{Tools: set, Allowlist: []string{"t"}},
		[]servedCall{{name: "t", input: "{}", cancel: true}, {name: "t", input: "{}"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].isError || !strings.Contains(got[0].text, "cancelled") || got[1] != (servedAnswer{"ran", false}) {
		t.Fatalf("answers %+v", got)
	}
	lines := readTrace(t, s)
	if want := []string{"session_start", "tool_call", "tool_call", "session_end:ok"}; !slices.Equal(types(lines), want) {
		t.Fatalf("trace %v, want %v", types(lines), want)
	}
	if c := find(lines, "tool_call")[0].Fields; c["cancelled"] != true || c["status"] != "error" {
		t.Errorf("the cancelled call's record %v", c)
	}

	stopped := testStaged(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	err = ServeTools(ctx, Options{Staged: stopped}, func(sctx context.Context, _ *Served) error {
		cancel()
		<-sctx.Done()
		return nil
	})
	if !errors.Is(err, KindCancelled) {
		t.Fatalf("a stopped served session: %v, want it cancelled", err)
	}
	if got := types(readTrace(t, stopped)); !slices.Equal(got, []string{"session_start", "session_end:cancelled"}) {
		t.Errorf("trace of a stopped session %v", got)
	}
}

// What ends the loop's session ends a served one: the workdir ceiling
// answers the call with the failure, stops the server and fails the run.
func TestServeToolsEndsOnTheWorkdirCeiling(t *testing.T) {
	s := testStaged(t, nil)
	set := tools.NewToolSet()
	set.Add("t", answering("ran"))
	breach := errors.New("workdir holds 2048 bytes, over capabilities.resources.workdir_max_bytes 1024")
	var served *Served
	stopped := false
	err := ServeTools(context.Background(), Options{Staged: s, Tools: set, Allowlist: []string{"t"},
		WorkdirBreach: func() error { return breach }}, func(ctx context.Context, sv *Served) error {
		served = sv
		text, isError := sv.Call(ctx, "t", "{}")
		if !isError || !strings.Contains(text, "workdir_max_bytes") {
			t.Errorf("the call past the ceiling was answered %q", text)
		}
		<-ctx.Done()
		stopped = true
		return nil
	})
	var d *diag.Error
	if !errors.As(err, &d) || d.Code != CodeWorkdir || !stopped {
		t.Fatalf("ServeTools past the workdir ceiling: %v (server stopped %v)", err, stopped)
	}
	if text, isError := served.Call(context.Background(), "t", "{}"); !isError || text != errServedClosed {
		t.Errorf("a call after the session ended: %q", text)
	}
	if got := types(readTrace(t, s)); !slices.Equal(got, []string{"session_start", "session_end:failed"}) {
		t.Errorf("trace %v", got)
	}
}

// A script capsule has tools and no model: its served session records
// no model.
func TestServeToolsOfAScriptCapsule(t *testing.T) {
	s := testStaged(t, func(c *manifest.Capsule) { c.Inference = nil })
	set := tools.NewToolSet()
	set.Add("t", answering("ran"))
	got, _, _, err := serveCalls(t, s, Options{Tools: set, Allowlist: []string{"t"}}, []servedCall{{name: "t", input: "{}"}})
	if err != nil || len(got) != 1 || got[0].text != "ran" {
		t.Fatalf("ServeTools of a script capsule: %+v, %v", got, err)
	}
	lines := readTrace(t, s)
	if m := lines[0].Fields["model"]; m != "" {
		t.Errorf("session_start model %q, want none", m)
	}
	if s.Capsule.Inference != nil {
		t.Error("ServeTools changed the caller's manifest")
	}
}
