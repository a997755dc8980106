package agent

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/tools"
)

// fakeCatalog is an MCP catalog whose list a tool call can change, as a
// server's notifications/tools/list_changed does.
type fakeCatalog struct {
	mu      sync.Mutex
	version uint64
	tools   map[string]tools.Tool
	listed  []tools.Listed
}

func (c *fakeCatalog) add(name, answer string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tools == nil {
		c.tools = map[string]tools.Tool{}
	}
	c.tools[name] = answering(answer)
	c.listed = append(c.listed, tools.Listed{Name: name, Description: "lent by a server", InputSchema: `{"type":"object"}`})
	c.version++
}

func (c *fakeCatalog) Listed(context.Context) ([]tools.Listed, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.listed), c.version
}

func (c *fakeCatalog) Lookup(name string) (tools.Tool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.tools[name]
	return t, ok
}

// toolNames is the names in a request's tools array.
func toolNames(req map[string]any) []string {
	var out []string
	for _, t := range req["tools"].([]any) {
		out = append(out, t.(map[string]any)["name"].(string))
	}
	return out
}

// An MCP server's tools are in the model's list (the staged ones here
// have no manifest to list), are dispatched by their mcp__ name and traced like any tool; a tool the
// server added while the session ran is in the next request's list and
// can be called; a name no server lists is a tool error to the model.
func TestMCPToolsListedAndDispatched(t *testing.T) {
	cat := &fakeCatalog{}
	cat.add("mcp__srv__echo", "Echo: hi")
	calls := func(names ...string) tools.ToolResult {
		blocks := ""
		for i, n := range names {
			if i > 0 {
				blocks += ","
			}
			blocks += fmt.Sprintf(`{"type":"tool_call","id":"%d","name":"%s","input":{}}`, i, n)
		}
		return passed(`{"stop_reason":"tool_call","content":[` + blocks + `]}`)
	}
	grow := toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
		cat.add("mcp__srv__grown", "grown answer")
		return passed("grew"), nil
	})
	s := testStaged(t, nil)
	set := tools.NewToolSet()
	set.Add("t", grow)
	d := &driver{answers: []tools.ToolResult{calls("mcp__srv__echo", "t"), calls("mcp__srv__grown", "mcp__srv__gone"), passed(endText)}}
	if _, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: set, Allowlist: []string{"t"}, MCP: cat}); err != nil {
		t.Fatal(err)
	}
	if len(d.requests) != 3 {
		t.Fatalf("%d requests", len(d.requests))
	}
	if got := toolNames(d.requests[0]); !slices.Equal(got, []string{"mcp__srv__echo"}) {
		t.Errorf("first request's tools: %v", got)
	}
	if got := toolNames(d.requests[1]); !slices.Equal(got, []string{"mcp__srv__echo", "mcp__srv__grown"}) {
		t.Errorf("second request's tools: %v", got)
	}
	results := func(req map[string]any) []string {
		var out []string
		msgs := req["messages"].([]any)
		for _, m := range msgs {
			mm := m.(map[string]any)
			if mm["role"] != "tool" {
				continue
			}
			for _, c := range mm["content"].([]any) {
				out = append(out, fmt.Sprintf("%v %v", mm["is_error"], c.(map[string]any)["text"]))
			}
		}
		return out
	}
	want := []string{"false Echo: hi", "false grew", "false grown answer", "true tool 'mcp__srv__gone' is not available in this session"}
	if got := results(d.requests[2]); !slices.Equal(got, want) {
		t.Errorf("tool results:\n got  %q\n want %q", got, want)
	}
	var traced []string
	for _, l := range readTrace(t, s) {
		if l.Type == trace.TypeToolCall {
			traced = append(traced, fmt.Sprintf("%v %v", l.Fields["tool_name"], l.Fields["status"]))
		}
	}
	if want := []string{"mcp__srv__echo ok", "t ok", "mcp__srv__grown ok", "mcp__srv__gone error"}; !slices.Equal(traced, want) {
		t.Errorf("tool_call records %q, want %q", traced, want)
	}
}
