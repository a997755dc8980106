package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// encode is v as compact JSON with object keys sorted at every level and
// no HTML escaping, the form Murmur's serde_json writes (session.md §1.1):
// drivers and token counts see the same bytes. Values are maps, slices,
// strings, bools and json.Number, so encoding/json sorts every map.
func encode(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// decode parses JSON into generic values, numbers kept verbatim, so what a
// driver returned is carried back to it unchanged but for key order.
func decode(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// textBlocks is content of one text block, the only shape the runtime
// writes (session.md §1.2).
func textBlocks(text string) []any {
	return []any{map[string]any{"type": "text", "text": text}}
}

func userMessage(task string) map[string]any {
	return map[string]any{"role": "user", "content": textBlocks(task)}
}

func assistantMessage(content []any) map[string]any {
	return map[string]any{"role": "assistant", "content": content}
}

func toolMessage(id string, isError bool, text string) map[string]any {
	return map[string]any{"role": "tool", "tool_call_id": id, "is_error": isError, "content": textBlocks(text)}
}

// request is one turn's request JSON (session.md §1.1); params is always
// empty and no continuation is sent.
type request struct {
	Model     string
	MaxTokens uint32
	System    string
	Messages  []any
	Tools     []any
}

func (r request) encode() (string, error) {
	tools := r.Tools
	if tools == nil {
		tools = []any{}
	}
	return encode(map[string]any{
		"max_tokens": r.MaxTokens,
		"messages":   r.Messages,
		"model":      r.Model,
		"params":     map[string]any{},
		"system":     r.System,
		"tools":      tools,
	})
}
