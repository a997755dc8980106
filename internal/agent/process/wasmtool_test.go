package process_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/agent/process"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// toolDispatch is the loop's dispatch reduced to one staged tool: the
// call's input as the tool's data, the result envelope's text and
// is_error (session.md §2.5).
type toolDispatch struct {
	tool  tools.Tool
	names []string
}

func (d *toolDispatch) Call(ctx context.Context, name, input string) (string, bool) {
	d.names = append(d.names, name)
	r, err := d.tool.Invoke(ctx, tools.ToolInput{Data: &input})
	if err != nil {
		return err.Error(), true
	}
	switch {
	case r.Data != nil:
		return *r.Data, r.Status != tools.StatusPassed
	case r.Summary != nil:
		return *r.Summary, r.Status != tools.StatusPassed
	}
	return "tool returned no data", r.Status != tools.StatusPassed
}

// The CLI's MCP call reaches a real WASM tool component (toolrun-go,
// which answers its data reversed) and its answer comes back to the CLI
// and into the result.
func TestBridgeCallsARealWasmTool(t *testing.T) {
	var guests testguest.Guests
	linker, err := host.NewToolLinker()
	if err != nil {
		t.Fatal(err)
	}
	wt, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "echo", Component: guests.Compile(t, "toolrun-go"),
		Linker: linker, Limits: component.Limits{}})
	if err != nil {
		t.Fatal(err)
	}
	d, tr := &toolDispatch{tool: wt}, &trace{}
	o := options(t, fakeCLI("claude"), `call echo {"a":"hi"}`, d, tr)
	res, err := process.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if want := `done: }"ih":"a"{`; res.Text != want || result(t, o.Workdir) != want {
		t.Fatalf("result %q, want %q", res.Text, want)
	}
	if !slices.Equal(d.names, []string{"echo"}) || res.ToolCalls != 1 {
		t.Fatalf("calls %q, traced %d", d.names, res.ToolCalls)
	}
}
