package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/tools"
)

// Tool is one tool of a started server, as the model calls it.
type Tool struct {
	server *server
	name   string // the server's name for it
	full   string // mcp__<server>__<name>
}

var _ tools.Tool = (*Tool)(nil)

// Invoke calls the tool with the model's input (a JSON object) within the
// capsule's deadline. The answer's content is the result's text; a result
// the server marked isError has status error. A call that fails (the
// server refused it, broke or ran past the deadline) is an error, which
// the model reads as a tool error.
func (t *Tool) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	args := map[string]any{}
	if in.Data != nil && strings.TrimSpace(*in.Data) != "" {
		if err := json.Unmarshal([]byte(*in.Data), &args); err != nil || args == nil {
			return tools.ToolResult{}, fmt.Errorf("tool '%s' takes a JSON object as its input", t.full)
		}
	}
	deadline := t.server.parent.cfg.Deadline
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	res, err := t.server.client().CallTool(ctx, &sdk.CallToolParams{Name: t.name, Arguments: args})
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
		return tools.ToolResult{}, fmt.Errorf("tool '%s' did not answer within its deadline of %s", t.full, deadline)
	case err != nil:
		return tools.ToolResult{}, fmt.Errorf("mcp server '%s' failed tool '%s': %w", t.server.name, t.name, err)
	}
	text := resultText(res)
	status := tools.StatusPassed
	if res.IsError {
		status = tools.StatusError
	}
	return tools.ToolResult{Status: status, Data: &text}, nil
}

// resultText is what the model reads of a tool's answer: its text
// content, other content described, the structured content when there
// is nothing else.
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
	}
	return strings.Join(parts, "\n")
}

func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image: %s, %d bytes]", c.MIMEType, len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes]", c.MIMEType, len(c.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource link: %s %s]", c.Name, c.URI)
	case *sdk.EmbeddedResource:
		if r := c.Resource; r != nil {
			if r.Text != "" {
				return r.Text
			}
			return fmt.Sprintf("[resource: %s, %s, %d bytes]", r.URI, r.MIMEType, len(r.Blob))
		}
	}
	return fmt.Sprintf("[%T content]", c)
}
