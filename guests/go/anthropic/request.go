// Package anthropic translates between the runtime's driver protocol and
// Anthropic's Messages API.
package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/wasihttp"
)

// Provider is the Messages API driver.
type Provider struct{}

// DefaultVersion is the anthropic-version header sent unless configured.
const DefaultVersion = "2023-06-01"

type config struct {
	driverkit.Config
	Version string `json:"anthropic_version"`
	// Beta is sent as anthropic-beta when set.
	Beta string `json:"beta"`
	// Thinking enables extended thinking: {"budget_tokens": N} (type
	// enabled implied) or the provider's whole object.
	Thinking map[string]json.RawMessage `json:"thinking"`
}

// Build is the POST to <endpoint>/v1/messages.
func (Provider) Build(env driverkit.Env, req *driverkit.Request) (*wasihttp.Request, bool, error) {
	var cfg config
	if err := driverkit.ParseConfig(env.Config, &cfg); err != nil {
		return nil, false, err
	}
	url, err := driverkit.Endpoint(env.Endpoint, "/v1/messages", "/messages")
	if err != nil {
		return nil, false, err
	}
	stream := cfg.Streaming()
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
		body["tools"] = tools(req.Tools)
	}
	if stream {
		body["stream"] = true
	}
	driverkit.Merge(body, req.Params)
	if tc, ok := req.Params["tool_choice"]; ok {
		body["tool_choice"] = toolChoice(tc)
	}
	body["messages"] = messages(req.Messages, thinkingOn(body["thinking"]))
	data, err := json.Marshal(body)
	if err != nil {
		return nil, false, err
	}
	version := DefaultVersion
	if cfg.Version != "" {
		version = cfg.Version
	}
	h := [][2]string{{"content-type", "application/json"}, {"anthropic-version", version}}
	if stream {
		h = append(h, [2]string{"accept", "text/event-stream"})
	}
	if cfg.Beta != "" {
		h = append(h, [2]string{"anthropic-beta", cfg.Beta})
	}
	if env.APIKey != "" {
		h = append(h, [2]string{"x-api-key", env.APIKey})
	}
	for k, v := range cfg.Headers {
		h = append(h, [2]string{k, v})
	}
	return &wasihttp.Request{Method: "POST", URL: url, Header: h, Body: data}, stream, nil
}

// thinkingOn reports extended thinking enabled in the body's thinking
// value (from the config or the params).
func thinkingOn(v any) bool {
	b, err := json.Marshal(v)
	if err != nil || v == nil {
		return false
	}
	var th struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(b, &th) == nil && th.Type != "disabled" && th.Type != ""
}

// toolChoice maps the runtime's string spellings ("required", "auto",
// "none") to Anthropic's objects; an object passes through.
func toolChoice(raw json.RawMessage) any {
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

// messages is the conversation in Anthropic's shape: tool calls become
// tool_use blocks, tool messages tool_result blocks in a user turn, and
// consecutive turns of one role are merged, since the API wants them to
// alternate. Thinking blocks go back only with thinking on, signature
// and all.
func messages(in []driverkit.Message, thinking bool) []any {
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
				"content": driverkit.Texts(m.Content, "\n")}
			if m.IsError {
				r["is_error"] = true
			}
			add("user", []any{r})
		case "assistant":
			add("assistant", assistantBlocks(m.Content, thinking))
		default:
			add("user", userBlocks(m.Content))
		}
	}
	out := make([]any, 0, len(turns))
	for _, t := range turns {
		out = append(out, map[string]any{"role": t.role, "content": t.content})
	}
	return out
}

func userBlocks(in []driverkit.Block) []any {
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

func assistantBlocks(in []driverkit.Block, thinking bool) []any {
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

func tools(in []driverkit.Tool) []any {
	out := make([]any, 0, len(in))
	for _, t := range in {
		e := map[string]any{"name": t.Name, "input_schema": t.Schema()}
		if t.Description != "" {
			e["description"] = t.Description
		}
		out = append(out, e)
	}
	return out
}

// ContextLength recognises "prompt is too long" and the like.
func (Provider) ContextLength(body []byte) bool {
	s := strings.ToLower(string(body))
	return strings.Contains(s, "prompt is too long") || strings.Contains(s, "context window") ||
		strings.Contains(s, "context length")
}
