package agent

import (
	"fmt"
	"strings"
)

// Stop reasons a driver may answer with (session.md §1.3).
const (
	stopEndTurn   = "end_turn"
	stopToolCall  = "tool_call"
	stopMaxTokens = "max_tokens"
	stopError     = "error"
)

// response is a parsed driver response.
type response struct {
	StopReason string
	// Content is the blocks as returned, carried back verbatim in the
	// assistant message; missing content is [].
	Content []any
	Error   string
}

// toolCall is one tool_call block.
type toolCall struct {
	ID, Name string
	// Input is the block's input re-encoded (sorted keys), {} when absent.
	Input string
}

func parseResponse(raw string) (response, error) {
	var v map[string]any
	if err := decode(raw, &v); err != nil {
		return response{}, fmt.Errorf("failed to parse driver response: %w", err)
	}
	if v == nil {
		return response{}, fmt.Errorf("failed to parse driver response: not a JSON object")
	}
	r := response{Content: []any{}}
	var ok bool
	if r.StopReason, ok = v["stop_reason"].(string); !ok {
		return response{}, fmt.Errorf("failed to parse driver response: stop_reason is missing or not a string")
	}
	if c, present := v["content"]; present && c != nil {
		if r.Content, ok = c.([]any); !ok {
			return response{}, fmt.Errorf("failed to parse driver response: content is not an array of blocks")
		}
	}
	r.Error, _ = v["error"].(string)
	return r, nil
}

// toolCalls are the tool_call blocks in content order.
func (r response) toolCalls() ([]toolCall, error) {
	var calls []toolCall
	for i, b := range r.Content {
		m, _ := b.(map[string]any)
		if m["type"] != "tool_call" {
			continue
		}
		c := toolCall{}
		c.ID, _ = m["id"].(string)
		c.Name, _ = m["name"].(string)
		in := m["input"]
		if in == nil {
			in = map[string]any{}
		}
		s, err := encode(in)
		if err != nil {
			return nil, fmt.Errorf("tool_call block %d: encoding its input: %w", i, err)
		}
		c.Input = s
		calls = append(calls, c)
	}
	return calls, nil
}

// text is every text block joined with "\n" (session.md §3.2 step 15).
func (r response) text() string {
	var parts []string
	for _, b := range r.Content {
		if m, _ := b.(map[string]any); m["type"] == "text" {
			s, _ := m["text"].(string)
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// firstToolName is the name of the first tool_call block, or nil.
func (r response) firstToolName() *string {
	for _, b := range r.Content {
		if m, _ := b.(map[string]any); m["type"] == "tool_call" {
			s, _ := m["name"].(string)
			return &s
		}
	}
	return nil
}
