package agent

import (
	"context"
	"fmt"

	"github.com/mur-go/mur/tools"
)

// shellTool adapts a ShellRunner to the dispatcher's Tool for one
// shell.allow binary: the outcome's text and error flag become the
// result the model reads (session.md §2.6).
type shellTool struct {
	runner tools.ShellRunner
	binary string
}

func (t shellTool) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	input := ""
	if in.Data != nil {
		input = *in.Data
	}
	o, err := t.runner.RunShell(ctx, t.binary, input)
	if err != nil {
		return tools.ToolResult{}, err
	}
	r := tools.ToolResult{Status: tools.StatusPassed, Data: tools.Str(o.Text), Truncated: o.Truncated,
		Summary: tools.Str(fmt.Sprintf("Shell command exited with code %d", o.ExitCode))}
	if o.IsError {
		r.Status, r.Summary = tools.StatusError, nil
	}
	if o.LogPath != "" {
		r.Metadata = []tools.Pair{{Key: "full_output_path", Value: o.LogPath}}
	}
	return r, nil
}
