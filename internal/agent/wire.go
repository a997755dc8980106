package agent

import (
	"bytes"
	"cmp"
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

// payload is one encoded request: its JSON, the messages it carries and
// their JSON.
type payload struct {
	json, messagesJSON string
	messages           []any
}

// payloads are this turn's full request (what tokens are counted on,
// session.md §4) and the one sent: the same, or with an active
// continuation only the unacknowledged tail and continuation_id (§3.6).
// The JSON is assembled from each message's encoding, kept from turn to
// turn, and the fixed keys around it, in sorted key order, so a turn
// encodes only its new messages.
func (l *loop) payloads(a *attemptRun) (full, wire payload, err error) {
	for len(a.enc) < len(a.msgs) {
		m, err := encode(a.msgs[len(a.enc)])
		if err != nil {
			return full, wire, err
		}
		a.enc = append(a.enc, m)
	}
	if l.reqTail == "" {
		inf := l.s.Capsule.Inference
		model, err := encode(inf.Model)
		if err != nil {
			return full, wire, err
		}
		system, err := encode(l.prompt.system)
		if err != nil {
			return full, wire, err
		}
		l.reqHead = fmt.Sprintf(`"max_tokens":%d,"messages":`, inf.EffectiveMaxTokens())
		l.reqTail = `,"model":` + model + `,"params":{},"system":` + system + `,"tools":` + cmp.Or(l.invJSON, "[]") + "}"
	}
	msgs := "[" + strings.Join(a.enc, ",") + "]"
	full = payload{json: "{" + l.reqHead + msgs + l.reqTail, messagesJSON: msgs, messages: a.msgs}
	tail, id, ok := l.cont.tail(a.msgs, a.t.ContextID)
	if !ok {
		return full, full, nil
	}
	key, err := encode(id)
	if err != nil {
		return full, wire, err
	}
	msgs = "[" + strings.Join(a.enc[len(a.msgs)-len(tail):], ",") + "]"
	wire = payload{json: `{"continuation_id":` + key + "," + l.reqHead + msgs + l.reqTail, messagesJSON: msgs, messages: tail}
	return full, wire, nil
}
