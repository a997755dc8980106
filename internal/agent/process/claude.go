package process

import (
	"encoding/json"
	"strings"
)

// claudeEvent is the part of a stream-json line the transport reads.
type claudeEvent struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	IsError bool   `json:"is_error"`
	Result  string `json:"result"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// claudeBlock is a content block of an assistant or user message.
type claudeBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// claudeLine feeds one stream-json event to r: assistant events are
// turns (unless only thinking) and open tool calls, user events carry
// their results, the result event the outcome.
func claudeLine(r *recorder, ev claudeEvent) error {
	switch ev.Type {
	case "assistant":
		blocks := claudeBlocks(ev.Message.Content)
		var uses []claudeBlock
		thinkingOnly := true
		for _, b := range blocks {
			if b.Type != "thinking" && b.Type != "redacted_thinking" {
				thinkingOnly = false
			}
			if b.Type == "tool_use" {
				uses = append(uses, b)
			}
		}
		if thinkingOnly && len(blocks) > 0 {
			return nil
		}
		names := make([]string, len(uses))
		for i, u := range uses {
			names[i] = strings.TrimPrefix(u.Name, claudeToolPrefix)
		}
		if err := r.turn(names); err != nil {
			return err
		}
		for i, u := range uses {
			r.callStarted(u.ID, names[i], u.Input)
		}
	case "user":
		for _, b := range claudeBlocks(ev.Message.Content) {
			if b.Type != "tool_result" {
				continue
			}
			if err := r.callEnded(b.ToolUseID, claudeText(b.Content), b.IsError); err != nil {
				return err
			}
		}
	case "result":
		text := ev.Result
		r.result = &text
		if ev.IsError || (ev.Subtype != "" && ev.Subtype != "success") {
			r.failure = "the agent CLI reported " + orDefault(ev.Subtype, "an error")
			if text != "" {
				r.failure += ": " + text
			}
		}
	}
	return nil
}

// claudeBlocks is a message's content as blocks; a plain string (how a
// user message may come) holds none the transport reads.
func claudeBlocks(content json.RawMessage) []claudeBlock {
	var blocks []claudeBlock
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	return blocks
}

// claudeText is a tool_result's content as text: a string, or its text
// blocks joined by newlines.
func claudeText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	if json.Unmarshal(content, &parts) != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
