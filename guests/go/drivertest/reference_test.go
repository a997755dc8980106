package drivertest

import (
	"encoding/json"
	"strings"

	"github.com/mur-go/mur/guests/go/driverkit"
)

// The provider bodies as the drivers built them before their JSON was
// written by hand: maps marshalled by encoding/json. The differential
// tests hold the hand-written bodies to these byte for byte.

func refOpenAIBody(req *driverkit.Request, maxTokensField string, stream, streamUsage bool) ([]byte, error) {
	body := map[string]any{"model": req.Model, "messages": refOpenAIMessages(req)}
	field := "max_tokens"
	if maxTokensField != "" {
		field = maxTokensField
	}
	if req.MaxTokens > 0 {
		body[field] = req.MaxTokens
	}
	if len(req.Tools) > 0 {
		out := make([]any, 0, len(req.Tools))
		for _, t := range req.Tools {
			fn := map[string]any{"name": t.Name, "parameters": t.Schema()}
			if t.Description != "" {
				fn["description"] = t.Description
			}
			out = append(out, map[string]any{"type": "function", "function": fn})
		}
		body["tools"] = out
	}
	if stream {
		body["stream"] = true
		if streamUsage {
			body["stream_options"] = map[string]any{"include_usage": true}
		}
	}
	for k, v := range req.Params {
		body[k] = v
	}
	return json.Marshal(body)
}

func refOpenAIMessages(req *driverkit.Request) []any {
	out := []any{}
	if req.System != "" {
		out = append(out, map[string]any{"role": "system", "content": req.System})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "assistant":
			msg := map[string]any{"role": "assistant"}
			text := texts(m.Content, "")
			var calls []any
			for _, b := range m.Content {
				if b.Type == "tool_call" {
					args := string(b.Input)
					if strings.TrimSpace(args) == "" {
						args = "{}"
					}
					calls = append(calls, map[string]any{"id": b.ID, "type": "function",
						"function": map[string]any{"name": b.Name, "arguments": args}})
				}
			}
			if text != "" || len(calls) == 0 {
				msg["content"] = text
			} else {
				msg["content"] = nil
			}
			if len(calls) > 0 {
				msg["tool_calls"] = calls
			}
			out = append(out, msg)
		case "tool":
			out = append(out, map[string]any{"role": "tool", "tool_call_id": m.ToolCallID,
				"content": texts(m.Content, "\n")})
		default:
			out = append(out, map[string]any{"role": m.Role, "content": refOpenAIUserContent(m.Content)})
		}
	}
	return out
}

func refOpenAIUserContent(blocks []driverkit.Block) any {
	images := false
	for _, b := range blocks {
		images = images || (b.Type == "image" && b.Source != nil)
	}
	if !images {
		return texts(blocks, "\n")
	}
	parts := []any{}
	for _, b := range blocks {
		switch {
		case b.Type == "text":
			parts = append(parts, map[string]any{"type": "text", "text": b.Text})
		case b.Type == "image" && b.Source != nil:
			parts = append(parts, map[string]any{"type": "image_url", "image_url": map[string]any{
				"url": "data:" + b.Source.MediaType + ";base64," + b.Source.Data}})
		}
	}
	return parts
}

func refAnthropicBody(req *driverkit.Request, config string) ([]byte, error) {
	var cfg struct {
		driverkit.Config
		Thinking map[string]json.RawMessage `json:"thinking"`
	}
	if err := driverkit.ParseConfig(config, &cfg); err != nil {
		return nil, err
	}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = 8192
	}
	body := map[string]any{"model": req.Model, "max_tokens": maxTokens}
	if req.System != "" {
		body["system"] = req.System
	}
	if len(cfg.Thinking) > 0 {
		th := map[string]json.RawMessage{"type": json.RawMessage(`"enabled"`)}
		for k, v := range cfg.Thinking {
			th[k] = v
		}
		body["thinking"] = th
	}
	if len(req.Tools) > 0 {
		out := make([]any, 0, len(req.Tools))
		for _, t := range req.Tools {
			e := map[string]any{"name": t.Name, "input_schema": t.Schema()}
			if t.Description != "" {
				e["description"] = t.Description
			}
			out = append(out, e)
		}
		body["tools"] = out
	}
	if cfg.Streaming() {
		body["stream"] = true
	}
	for k, v := range req.Params {
		body[k] = v
	}
	if tc, ok := req.Params["tool_choice"]; ok {
		body["tool_choice"] = refToolChoice(tc)
	}
	body["messages"] = refAnthropicMessages(req.Messages, refThinkingOn(body["thinking"]))
	return json.Marshal(body)
}

func refThinkingOn(v any) bool {
	b, err := json.Marshal(v)
	if err != nil || v == nil {
		return false
	}
	var th struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(b, &th) == nil && th.Type != "disabled" && th.Type != ""
}

func refToolChoice(raw json.RawMessage) any {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	switch s {
	case "required", "any":
		return map[string]string{"type": "any"}
	case "none":
		return map[string]string{"type": "none"}
	}
	return map[string]string{"type": "auto"}
}

func refAnthropicMessages(in []driverkit.Message, thinking bool) []any {
	type turn struct {
		role    string
		content []any
	}
	var turns []*turn
	add := func(role string, blocks []any) {
		if len(blocks) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].role == role {
			turns[n-1].content = append(turns[n-1].content, blocks...)
			return
		}
		turns = append(turns, &turn{role: role, content: blocks})
	}
	for _, m := range in {
		switch m.Role {
		case "tool":
			r := map[string]any{"type": "tool_result", "tool_use_id": m.ToolCallID,
				"content": texts(m.Content, "\n")}
			if m.IsError {
				r["is_error"] = true
			}
			add("user", []any{r})
		case "assistant":
			add("assistant", refAssistantBlocks(m.Content, thinking))
		default:
			add("user", refUserBlocks(m.Content))
		}
	}
	out := make([]any, 0, len(turns))
	for _, t := range turns {
		out = append(out, map[string]any{"role": t.role, "content": t.content})
	}
	return out
}

func refUserBlocks(in []driverkit.Block) []any {
	out := []any{}
	for _, b := range in {
		switch b.Type {
		case "text":
			out = append(out, map[string]any{"type": "text", "text": b.Text})
		case "image":
			if b.Source != nil {
				out = append(out, map[string]any{"type": "image", "source": map[string]any{
					"type": "base64", "media_type": b.Source.MediaType, "data": b.Source.Data}})
			}
		}
	}
	return out
}

func refAssistantBlocks(in []driverkit.Block, thinking bool) []any {
	out := []any{}
	for _, b := range in {
		switch b.Type {
		case "text":
			if b.Text != "" {
				out = append(out, map[string]any{"type": "text", "text": b.Text})
			}
		case "tool_call":
			input := b.Input
			if len(strings.TrimSpace(string(input))) == 0 || string(input) == "null" {
				input = json.RawMessage(`{}`)
			}
			out = append(out, map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": input})
		case "thinking":
			if thinking && b.Signature != "" {
				out = append(out, map[string]any{"type": "thinking", "thinking": b.Text, "signature": b.Signature})
			}
		case "redacted_thinking":
			if thinking {
				out = append(out, b.Raw)
			}
		}
	}
	return out
}

// texts joins a message's text blocks with sep.
func texts(blocks []driverkit.Block, sep string) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, sep)
}
