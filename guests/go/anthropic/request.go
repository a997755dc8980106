// Package anthropic translates between the runtime's driver protocol and
// Anthropic's Messages API.
package anthropic

import (
	"encoding/json"
	"strconv"
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

// readConfig reads the driver config, by hand when it can (see
// driverkit.ParseRequest for why).
func readConfig(raw string) (config, error) {
	var cfg config
	base, ok := driverkit.ReadConfig(raw, []string{"anthropic_version", "beta", "thinking"}, func(r *driverkit.Reader, i int) {
		switch i {
		case 0:
			cfg.Version = r.Str()
		case 1:
			cfg.Beta = r.Str()
		case 2:
			cfg.Thinking = map[string]json.RawMessage{}
			if r.Peek() != '{' {
				r.Fail()
			}
			r.Object(func(k string) { cfg.Thinking[k] = r.Raw() })
		}
	})
	if ok {
		cfg.Config = base
		return cfg, nil
	}
	cfg = config{}
	return cfg, driverkit.ParseConfig(raw, &cfg)
}

// Build is the POST to <endpoint>/v1/messages.
func (Provider) Build(env driverkit.Env, req *driverkit.Request) (*wasihttp.Request, bool, error) {
	cfg, err := readConfig(env.Config)
	if err != nil {
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
	// The body is written once into one buffer, members in key order as
	// json.Marshal of the equivalent map wrote them.
	var body driverkit.Object
	body.Set("model", driverkit.String(req.Model))
	body.Set("max_tokens", driverkit.Literal(strconv.FormatUint(uint64(maxTokens), 10)))
	if req.System != "" {
		body.Set("system", driverkit.String(req.System))
	}
	var thinking []byte
	if len(cfg.Thinking) > 0 {
		th := driverkit.Object{{Key: "type", Value: driverkit.Literal(`"enabled"`)}}
		for k, v := range cfg.Thinking {
			th.Set(k, driverkit.Raw(v))
		}
		thinking = th.Append(nil)
		body.Set("thinking", driverkit.Literal(string(thinking)))
	}
	if len(req.Tools) > 0 {
		body.Set("tools", func(dst []byte) []byte { return appendTools(dst, req.Tools) })
	}
	if stream {
		body.Set("stream", driverkit.Literal("true"))
	}
	for k, v := range req.Params {
		body.Set(k, driverkit.Raw(v))
	}
	if v, ok := req.Params["thinking"]; ok {
		thinking = v
	}
	if tc, ok := req.Params["tool_choice"]; ok {
		body.Set("tool_choice", toolChoice(tc))
	}
	turns := messages(req.Messages, thinkingOn(thinking))
	body.Set("messages", func(dst []byte) []byte { return appendTurns(dst, turns) })
	data := body.Append(make([]byte, 0, driverkit.RequestSize(req)))
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
func thinkingOn(v []byte) bool {
	if v == nil {
		return false
	}
	var th struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(v, &th) == nil && th.Type != "disabled" && th.Type != ""
}

// toolChoice maps the runtime's string spellings ("required", "auto",
// "none") to Anthropic's objects; an object passes through.
func toolChoice(raw json.RawMessage) func([]byte) []byte {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return driverkit.Raw(raw)
	}
	switch s {
	case "required", "any":
		return driverkit.Literal(`{"type":"any"}`)
	case "none":
		return driverkit.Literal(`{"type":"none"}`)
	}
	return driverkit.Literal(`{"type":"auto"}`)
}

// part is one block of a turn: a tool message's result (tool set) or a
// block of a message.
type part struct {
	tool  *driverkit.Message
	block *driverkit.Block
}

type turn struct {
	role  string
	parts []part
}

// messages is the conversation in Anthropic's shape: tool calls become
// tool_use blocks, tool messages tool_result blocks in a user turn, and
// consecutive turns of one role are merged, since the API wants them to
// alternate. Thinking blocks go back only with thinking on, signature
// and all.
func messages(in []driverkit.Message, thinking bool) []turn {
	var turns []turn
	add := func(role string, parts []part) {
		if len(parts) == 0 {
			return
		}
		if n := len(turns); n > 0 && turns[n-1].role == role {
			turns[n-1].parts = append(turns[n-1].parts, parts...)
			return
		}
		turns = append(turns, turn{role: role, parts: parts})
	}
	for i := range in {
		m := &in[i]
		switch m.Role {
		case "tool":
			add("user", []part{{tool: m}})
		case "assistant":
			add("assistant", blocks(m.Content, func(b *driverkit.Block) bool {
				switch b.Type {
				case "text":
					return b.Text != ""
				case "tool_call":
					return true
				case "thinking":
					return thinking && b.Signature != ""
				case "redacted_thinking":
					return thinking
				}
				return false
			}))
		default:
			add("user", blocks(m.Content, func(b *driverkit.Block) bool {
				return b.Type == "text" || (b.Type == "image" && b.Source != nil)
			}))
		}
	}
	return turns
}

func blocks(in []driverkit.Block, keep func(*driverkit.Block) bool) []part {
	var out []part
	for i := range in {
		if keep(&in[i]) {
			out = append(out, part{block: &in[i]})
		}
	}
	return out
}

func appendTurns(dst []byte, turns []turn) []byte {
	dst = append(dst, '[')
	for i, t := range turns {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"content":[`...)
		for j, p := range t.parts {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = appendPart(dst, p, t.role)
		}
		dst = append(dst, `],"role":`...)
		dst = driverkit.AppendString(dst, t.role)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendPart writes one block with its keys in sorted order.
func appendPart(dst []byte, p part, role string) []byte {
	if m := p.tool; m != nil {
		dst = append(dst, `{"content":`...)
		dst = driverkit.AppendTexts(dst, m.Content, "\n")
		if m.IsError {
			dst = append(dst, `,"is_error":true`...)
		}
		dst = append(dst, `,"tool_use_id":`...)
		dst = driverkit.AppendString(dst, m.ToolCallID)
		return append(dst, `,"type":"tool_result"}`...)
	}
	b := p.block
	switch {
	case b.Type == "text":
		dst = append(dst, `{"text":`...)
		dst = driverkit.AppendString(dst, b.Text)
		return append(dst, `,"type":"text"}`...)
	case b.Type == "image":
		dst = append(dst, `{"source":{"data":`...)
		dst = driverkit.AppendString(dst, b.Source.Data)
		dst = append(dst, `,"media_type":`...)
		dst = driverkit.AppendString(dst, b.Source.MediaType)
		return append(dst, `,"type":"base64"},"type":"image"}`...)
	case b.Type == "tool_call":
		input := b.Input
		if len(strings.TrimSpace(string(input))) == 0 || string(input) == "null" {
			input = json.RawMessage(`{}`)
		}
		dst = append(dst, `{"id":`...)
		dst = driverkit.AppendString(dst, b.ID)
		dst = append(dst, `,"input":`...)
		dst = driverkit.AppendRaw(dst, input)
		dst = append(dst, `,"name":`...)
		dst = driverkit.AppendString(dst, b.Name)
		return append(dst, `,"type":"tool_use"}`...)
	case b.Type == "thinking":
		dst = append(dst, `{"signature":`...)
		dst = driverkit.AppendString(dst, b.Signature)
		dst = append(dst, `,"thinking":`...)
		dst = driverkit.AppendString(dst, b.Text)
		return append(dst, `,"type":"thinking"}`...)
	}
	return driverkit.AppendRaw(dst, b.Raw) // redacted_thinking, as received
}

func appendTools(dst []byte, in []driverkit.Tool) []byte {
	dst = append(dst, '[')
	for i, t := range in {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		if t.Description != "" {
			dst = append(dst, `"description":`...)
			dst = driverkit.AppendString(dst, t.Description)
			dst = append(dst, ',')
		}
		dst = append(dst, `"input_schema":`...)
		dst = driverkit.AppendRaw(dst, t.Schema())
		dst = append(dst, `,"name":`...)
		dst = driverkit.AppendString(dst, t.Name)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// ContextLength recognises "prompt is too long" and the like.
func (Provider) ContextLength(body []byte) bool {
	s := strings.ToLower(string(body))
	return strings.Contains(s, "prompt is too long") || strings.Contains(s, "context window") ||
		strings.Contains(s, "context length")
}
