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

// payload is one encoded request: its JSON and the messages it carries.
type payload struct {
	json     string
	messages []any
}

// payloads are this turn's full request (what tokens are counted on,
// session.md §4) and the one sent: the same, or with an active
// continuation only the unacknowledged tail and continuation_id (§3.6).
func (l *launch) payloads(a *attemptRun) (full, wire payload, err error) {
	inf := l.s.Capsule.Inference
	req := map[string]any{
		"max_tokens": inf.EffectiveMaxTokens(),
		"messages":   a.msgs,
		"model":      inf.Model,
		"params":     map[string]any{},
		"system":     l.prompt.system,
		"tools":      l.inv,
	}
	full = payload{messages: a.msgs}
	if full.json, err = encode(req); err != nil {
		return full, wire, err
	}
	tail, id, ok := l.cont.tail(a.msgs, a.t.ContextID)
	if !ok {
		return full, full, nil
	}
	req["messages"], req["continuation_id"] = tail, id
	wire = payload{messages: tail}
	wire.json, err = encode(req)
	return full, wire, err
}
