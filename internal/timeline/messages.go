package timeline

import (
	"bytes"
	"encoding/json"
)

// Message is one message of a model request, as shown.
type Message struct {
	Role       string
	ToolCallID string
	IsError    bool
	Blocks     []Block
}

// Block is one content block (session.md §1.2), as shown: Kind is text,
// thinking, tool_call, or the block's own type for any other (shown as
// its JSON).
type Block struct {
	Kind, Text string
	// ID, Name and Input are a tool call's.
	ID, Name, Input string
}

// Answer is a driver's response (session.md §1.3), as shown.
type Answer struct {
	StopReason, Error string
	Blocks            []Block
}

// parseMessages reads a model_start's text: a JSON array of messages.
func parseMessages(text string) ([]Message, bool) {
	var raw []struct {
		Role       string            `json:"role"`
		ToolCallID string            `json:"tool_call_id"`
		IsError    bool              `json:"is_error"`
		Content    []json.RawMessage `json:"content"`
	}
	if json.Unmarshal([]byte(text), &raw) != nil {
		return nil, false
	}
	out := make([]Message, 0, len(raw))
	for _, m := range raw {
		out = append(out, Message{Role: printable(m.Role, true), ToolCallID: printable(m.ToolCallID, true), IsError: m.IsError,
			Blocks: parseBlocks(m.Content)})
	}
	return out, true
}

// parseAnswer reads a model_end's text: the driver's response.
func parseAnswer(text string) (Answer, bool) {
	var raw struct {
		StopReason string            `json:"stop_reason"`
		Error      string            `json:"error"`
		Content    []json.RawMessage `json:"content"`
	}
	if json.Unmarshal([]byte(text), &raw) != nil {
		return Answer{}, false
	}
	return Answer{StopReason: printable(raw.StopReason, true), Error: printable(raw.Error, false), Blocks: parseBlocks(raw.Content)}, true
}

func parseBlocks(content []json.RawMessage) []Block {
	var out []Block
	for _, c := range content {
		var b struct {
			Type  string          `json:"type"`
			Text  string          `json:"text"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if json.Unmarshal(c, &b) != nil {
			out = append(out, Block{Kind: "other", Text: printable(string(c), false)})
			continue
		}
		switch b.Type {
		case "text", "thinking":
			out = append(out, Block{Kind: b.Type, Text: printable(b.Text, false)})
		case "tool_call":
			out = append(out, Block{Kind: b.Type, ID: printable(b.ID, true), Name: printable(b.Name, true), Input: compact(b.Input)})
		default:
			out = append(out, Block{Kind: printable(b.Type, true), Text: printable(string(c), false)})
		}
	}
	return out
}

// compact is a JSON value on one line, printable.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return printable(string(raw), true)
	}
	return printable(b.String(), true)
}
