// Package driverkit is what the first-party inference drivers share: the
// runtime's request and response JSON (session.md §1), the driver error
// convention and its metadata, the SSE reader, and Run, which sends one
// provider request and translates the answer. The provider-specific parts
// (request body, response and stream decoding) are a Provider. It compiles
// natively too, so the translation is tested and fuzzed as plain Go.
package driverkit

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Request is the runtime's request JSON (session.md §1.1).
type Request struct {
	Model          string                     `json:"model"`
	MaxTokens      uint32                     `json:"max_tokens"`
	Messages       []Message                  `json:"messages"`
	Tools          []Tool                     `json:"tools"`
	Params         map[string]json.RawMessage `json:"params"`
	System         string                     `json:"system"`
	ContinuationID string                     `json:"continuation_id,omitempty"`
	// Size is the length of the JSON the request was read from (0 for
	// one made otherwise): a provider body for it is about as long,
	// escapes included.
	Size int `json:"-"`
}

// Message is one conversation entry (§1.2).
type Message struct {
	Role       string  `json:"role"`
	Content    []Block `json:"content"`
	ToolCallID string  `json:"tool_call_id,omitempty"`
	IsError    bool    `json:"is_error,omitempty"`
}

// Block is a content block. Raw keeps the block as received so a type this
// package does not know is carried back to the provider untouched.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Source    *ImageSource    `json:"source,omitempty"`
	Raw       json.RawMessage `json:"-"`
}

// ImageSource is an image block's source.
type ImageSource struct {
	Type      string `json:"type,omitempty"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// UnmarshalJSON keeps the raw bytes beside the known fields.
func (b *Block) UnmarshalJSON(data []byte) error {
	type plain Block
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*b = Block(p)
	b.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// Tool is an inventory entry (§2.3).
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Schema is the tool's parameters, or an empty object schema.
func (t Tool) Schema() json.RawMessage {
	if len(bytes.TrimSpace(t.Parameters)) == 0 || string(t.Parameters) == "null" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return t.Parameters
}

// Response is the driver's answer (§1.3).
type Response struct {
	StopReason string `json:"stop_reason"`
	Content    []any  `json:"content"`
	Usage      *Usage `json:"usage,omitempty"`
}

// Stop reasons of the runtime protocol.
const (
	StopEndTurn   = "end_turn"
	StopToolCall  = "tool_call"
	StopMaxTokens = "max_tokens"
)

// Usage is provider usage mapped to the runtime's names (§13); a zero
// count is omitted, as drivers report "not known" and "none" alike.
type Usage struct {
	InputTokens      uint64 `json:"input_tokens,omitempty"`
	OutputTokens     uint64 `json:"output_tokens,omitempty"`
	CachedTokens     uint64 `json:"cached_tokens,omitempty"`
	CacheWriteTokens uint64 `json:"cache_write_tokens,omitempty"`
	ThinkingTokens   uint64 `json:"thinking_tokens,omitempty"`
}

// OrNil is u, or nil when it reports nothing.
func (u *Usage) OrNil() *Usage {
	if u == nil || *u == (Usage{}) {
		return nil
	}
	return u
}

// TextBlock, ToolCallBlock and ThinkingBlock are response blocks.
func TextBlock(text string) any { return map[string]any{"type": "text", "text": text} }

// ToolCallBlock is a tool_call block; input must be a JSON object.
func ToolCallBlock(id, name string, input json.RawMessage) any {
	return map[string]any{"type": "tool_call", "id": id, "name": name, "input": input}
}

// ThinkingBlock is a thinking block; the signature is kept for the
// provider's verification when the block is sent back.
func ThinkingBlock(text, signature string) any {
	return map[string]any{"type": "thinking", "text": text, "signature": signature}
}

// ToolInput parses a model's tool arguments into a JSON object: empty
// means {}, and anything that is not an object is wrapped so the runtime
// still gets an object and the tool sees what the model wrote.
func ToolInput(args string) json.RawMessage {
	s := strings.TrimSpace(args)
	if s == "" {
		return json.RawMessage(`{}`)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err == nil && obj != nil {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(map[string]string{"_raw_arguments": args})
	return b
}

// Encode is compact JSON without HTML escaping.
func Encode(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
