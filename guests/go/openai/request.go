// Package openai translates between the runtime's driver protocol and the
// OpenAI Chat Completions API, which OpenAI, Ollama, vLLM, llama.cpp's
// server, LM Studio, OpenRouter, Together and Groq all serve.
package openai

import (
	"strconv"
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

// readConfig reads the driver config, by hand when it can (see
// driverkit.ParseRequest for why).
func readConfig(raw string) (config, error) {
	var cfg config
	base, ok := driverkit.ReadConfig(raw, []string{"max_tokens_field", "stream_usage"}, func(r *driverkit.Reader, i int) {
		switch i {
		case 0:
			cfg.MaxTokensField = r.Str()
		case 1:
			b := r.Bool()
			cfg.StreamUsage = &b
		}
	})
	if ok {
		cfg.Config = base
		return cfg, nil
	}
	cfg = config{}
	return cfg, driverkit.ParseConfig(raw, &cfg)
}

// Build is the POST to <endpoint>/chat/completions.
func (Provider) Build(env driverkit.Env, req *driverkit.Request) (*wasihttp.Request, bool, error) {
	cfg, err := readConfig(env.Config)
	if err != nil {
		return nil, false, err
	}
	url, err := driverkit.Endpoint(env.Endpoint, "/v1/chat/completions", "/chat/completions")
	if err != nil {
		return nil, false, err
	}
	stream := cfg.Streaming()
	// The body is written once into one buffer, members in key order as
	// json.Marshal of the equivalent map wrote them.
	var body driverkit.Object
	body.Set("model", driverkit.String(req.Model))
	body.Set("messages", func(dst []byte) []byte { return appendMessages(dst, req) })
	field := "max_tokens"
	if cfg.MaxTokensField != "" {
		field = cfg.MaxTokensField
	}
	if req.MaxTokens > 0 {
		body.Set(field, driverkit.Literal(strconv.FormatUint(uint64(req.MaxTokens), 10)))
	}
	if len(req.Tools) > 0 {
		body.Set("tools", func(dst []byte) []byte { return appendTools(dst, req.Tools) })
	}
	if stream {
		body.Set("stream", driverkit.Literal("true"))
		if cfg.StreamUsage == nil || *cfg.StreamUsage {
			body.Set("stream_options", driverkit.Literal(`{"include_usage":true}`))
		}
	}
	for k, v := range req.Params {
		body.Set(k, driverkit.Raw(v))
	}
	data := body.Append(make([]byte, 0, driverkit.RequestSize(req)))
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

// appendMessages writes the system prompt followed by the conversation:
// tool calls become an assistant's tool_calls, a tool message a role
// tool message, and thinking blocks stay behind (Chat Completions takes
// none back). Keys are in sorted order.
func appendMessages(dst []byte, req *driverkit.Request) []byte {
	dst = append(dst, '[')
	first := true
	next := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	if req.System != "" {
		next()
		dst = append(dst, `{"content":`...)
		dst = driverkit.AppendString(dst, req.System)
		dst = append(dst, `,"role":"system"}`...)
	}
	for _, m := range req.Messages {
		next()
		switch m.Role {
		case "assistant":
			dst = appendAssistant(dst, m.Content)
		case "tool":
			dst = append(dst, `{"content":`...)
			dst = driverkit.AppendTexts(dst, m.Content, "\n")
			dst = append(dst, `,"role":"tool","tool_call_id":`...)
			dst = driverkit.AppendString(dst, m.ToolCallID)
			dst = append(dst, '}')
		default:
			dst = append(dst, `{"content":`...)
			dst = appendUserContent(dst, m.Content)
			dst = append(dst, `,"role":`...)
			dst = driverkit.AppendString(dst, m.Role)
			dst = append(dst, '}')
		}
	}
	return append(dst, ']')
}

func appendAssistant(dst []byte, blocks []driverkit.Block) []byte {
	calls, text := 0, false
	for _, b := range blocks {
		switch {
		case b.Type == "tool_call":
			calls++
		case b.Type == "text" && b.Text != "":
			text = true
		}
	}
	dst = append(dst, `{"content":`...)
	if text || calls == 0 {
		dst = driverkit.AppendTexts(dst, blocks, "")
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"role":"assistant"`...)
	if calls > 0 {
		dst = append(dst, `,"tool_calls":[`...)
		n := 0
		for _, b := range blocks {
			if b.Type != "tool_call" {
				continue
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			args := string(b.Input)
			if strings.TrimSpace(args) == "" {
				args = "{}"
			}
			dst = append(dst, `{"function":{"arguments":`...)
			dst = driverkit.AppendString(dst, args)
			dst = append(dst, `,"name":`...)
			dst = driverkit.AppendString(dst, b.Name)
			dst = append(dst, `},"id":`...)
			dst = driverkit.AppendString(dst, b.ID)
			dst = append(dst, `,"type":"function"}`...)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendUserContent is plain text when every block is text (what every
// server accepts), else content parts with images as data URLs.
func appendUserContent(dst []byte, blocks []driverkit.Block) []byte {
	images := false
	for _, b := range blocks {
		images = images || (b.Type == "image" && b.Source != nil)
	}
	if !images {
		return driverkit.AppendTexts(dst, blocks, "\n")
	}
	dst = append(dst, '[')
	n := 0
	for _, b := range blocks {
		switch {
		case b.Type == "text":
		case b.Type == "image" && b.Source != nil:
		default:
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		if b.Type == "text" {
			dst = append(dst, `{"text":`...)
			dst = driverkit.AppendString(dst, b.Text)
			dst = append(dst, `,"type":"text"}`...)
			continue
		}
		dst = append(dst, `{"image_url":{"url":`...)
		dst = driverkit.AppendString(dst, "data:"+b.Source.MediaType+";base64,"+b.Source.Data)
		dst = append(dst, `},"type":"image_url"}`...)
	}
	return append(dst, ']')
}

func appendTools(dst []byte, in []driverkit.Tool) []byte {
	dst = append(dst, '[')
	for i, t := range in {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"function":{`...)
		if t.Description != "" {
			dst = append(dst, `"description":`...)
			dst = driverkit.AppendString(dst, t.Description)
			dst = append(dst, ',')
		}
		dst = append(dst, `"name":`...)
		dst = driverkit.AppendString(dst, t.Name)
		dst = append(dst, `,"parameters":`...)
		dst = driverkit.AppendRaw(dst, t.Schema())
		dst = append(dst, `},"type":"function"}`...)
	}
	return append(dst, ']')
}

// ContextLength recognises the context-length errors of OpenAI
// (context_length_exceeded) and of the servers that mimic its wording.
func (Provider) ContextLength(body []byte) bool {
	s := strings.ToLower(string(body))
	return strings.Contains(s, "context_length_exceeded") || strings.Contains(s, "maximum context length") ||
		strings.Contains(s, "context length") || strings.Contains(s, "too many tokens")
}
