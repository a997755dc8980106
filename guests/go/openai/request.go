// Package openai translates between the runtime's driver protocol and the
// OpenAI Chat Completions API, which OpenAI, Ollama, vLLM, llama.cpp's
// server, LM Studio, OpenRouter, Together and Groq all serve.
package openai

import (
	"encoding/json"
	"strings"

	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/wasihttp"
)

// Provider is the Chat Completions driver.
type Provider struct{}

// config is the driver config this provider reads.
type config struct {
	driverkit.Config
	// MaxTokensField names the output cap: max_tokens (default) or
	// max_completion_tokens, which OpenAI's reasoning models require.
	MaxTokensField string `json:"max_tokens_field"`
	// StreamUsage asks for a final usage chunk (default true); some
	// servers reject stream_options.
	StreamUsage *bool `json:"stream_usage"`
}

// Build is the POST to <endpoint>/chat/completions.
func (Provider) Build(env driverkit.Env, req *driverkit.Request) (*wasihttp.Request, bool, error) {
	var cfg config
	if err := driverkit.ParseConfig(env.Config, &cfg); err != nil {
		return nil, false, err
	}
	url, err := driverkit.Endpoint(env.Endpoint, "/v1/chat/completions", "/chat/completions")
	if err != nil {
		return nil, false, err
	}
	stream := cfg.Streaming()
	body := map[string]any{"model": req.Model, "messages": messages(req)}
	field := "max_tokens"
	if cfg.MaxTokensField != "" {
		field = cfg.MaxTokensField
	}
	if req.MaxTokens > 0 {
		body[field] = req.MaxTokens
	}
	if len(req.Tools) > 0 {
		body["tools"] = tools(req.Tools)
	}
	if stream {
		body["stream"] = true
		if cfg.StreamUsage == nil || *cfg.StreamUsage {
			body["stream_options"] = map[string]any{"include_usage": true}
		}
	}
	driverkit.Merge(body, req.Params)
	data, err := json.Marshal(body)
	if err != nil {
		return nil, false, err
	}
	h := [][2]string{{"content-type", "application/json"}}
	if stream {
		h = append(h, [2]string{"accept", "text/event-stream"})
	}
	if env.APIKey != "" {
		h = append(h, [2]string{"authorization", "Bearer " + env.APIKey})
	}
	for k, v := range cfg.Headers {
		h = append(h, [2]string{k, v})
	}
	return &wasihttp.Request{Method: "POST", URL: url, Header: h, Body: data}, stream, nil
}

// messages is the system prompt followed by the conversation: tool calls
// become an assistant's tool_calls, a tool message a role tool message,
// and thinking blocks stay behind (Chat Completions takes none back).
func messages(req *driverkit.Request) []any {
	out := []any{}
	if req.System != "" {
		out = append(out, map[string]any{"role": "system", "content": req.System})
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "assistant":
			msg := map[string]any{"role": "assistant"}
			text := driverkit.Texts(m.Content, "")
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
				"content": driverkit.Texts(m.Content, "\n")})
		default:
			out = append(out, map[string]any{"role": m.Role, "content": userContent(m.Content)})
		}
	}
	return out
}

// userContent is plain text when every block is text (what every server
// accepts), else content parts with images as data URLs.
func userContent(blocks []driverkit.Block) any {
	images := false
	for _, b := range blocks {
		images = images || (b.Type == "image" && b.Source != nil)
	}
	if !images {
		return driverkit.Texts(blocks, "\n")
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

func tools(in []driverkit.Tool) []any {
	out := make([]any, 0, len(in))
	for _, t := range in {
		fn := map[string]any{"name": t.Name, "parameters": t.Schema()}
		if t.Description != "" {
			fn["description"] = t.Description
		}
		out = append(out, map[string]any{"type": "function", "function": fn})
	}
	return out
}

// ContextLength recognises the context-length errors of OpenAI
// (context_length_exceeded) and of the servers that mimic its wording.
func (Provider) ContextLength(body []byte) bool {
	s := strings.ToLower(string(body))
	return strings.Contains(s, "context_length_exceeded") || strings.Contains(s, "maximum context length") ||
		strings.Contains(s, "context length") || strings.Contains(s, "too many tokens")
}
