package process

import (
	"encoding/json"
	"strings"
)

// codexEvent is the part of a codex exec --json line the transport reads.
type codexEvent struct {
	Type    string     `json:"type"`
	Item    *codexItem `json:"item"`
	Message string     `json:"message"`
	Error   *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type codexItem struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Status    string          `json:"status"`
	Result    *struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// codexState is what a codex stream has shown so far beyond r's counts:
// the items already counted as turns.
type codexState struct {
	seen map[string]bool
}

// codexLine feeds one codex event to r: each agent_message and
// mcp_tool_call item is one turn (counted when first seen), a completed
// tool call is traced, the last agent_message is the result.
func (c *codexState) line(r *recorder, ev codexEvent) error {
	switch ev.Type {
	case "item.started", "item.updated", "item.completed":
	case "turn.failed", "error":
		msg := ev.Message
		if ev.Error != nil {
			msg = ev.Error.Message
		}
		r.failure = "the agent CLI reported an error: " + orDefault(msg, ev.Type)
		return nil
	default:
		return nil
	}
	it := ev.Item
	if it == nil || (it.Type != "agent_message" && it.Type != "mcp_tool_call") {
		return nil
	}
	if !c.seen[it.ID] {
		c.seen[it.ID] = true
		var tools []string
		if it.Type == "mcp_tool_call" {
			tools = []string{it.Tool}
		}
		if err := r.turn(tools); err != nil {
			return err
		}
		if it.Type == "mcp_tool_call" {
			r.callStarted(it.ID, it.Tool, it.Arguments)
		}
	}
	if ev.Type != "item.completed" {
		return nil
	}
	if it.Type == "agent_message" {
		text := it.Text
		r.result = &text
		return nil
	}
	var out []string
	if it.Result != nil {
		for _, p := range it.Result.Content {
			if p.Type == "text" {
				out = append(out, p.Text)
			}
		}
	}
	failed := it.Error != nil || it.Status == "failed"
	if it.Error != nil && len(out) == 0 {
		out = append(out, it.Error.Message)
	}
	return r.callEnded(it.ID, strings.Join(out, "\n"), failed)
}
