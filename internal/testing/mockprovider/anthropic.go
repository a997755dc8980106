package mockprovider

import "strings"

// Anthropic is a whole Messages API answer: an optional signed thinking
// block, the text, then tool_use blocks.
func Anthropic(thinking, text string, calls ...Call) Reply {
	var content []any
	if thinking != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": thinking, "signature": "sig-" + thinking})
	}
	if text != "" {
		content = append(content, map[string]any{"type": "text", "text": text})
	}
	stop := "end_turn"
	for _, c := range calls {
		content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": rawJSON(c.Args)})
		stop = "tool_use"
	}
	return Reply{Body: mustJSON(map[string]any{"id": "msg_mock", "type": "message", "role": "assistant",
		"content": content, "stop_reason": stop,
		"usage": map[string]any{"input_tokens": 12, "output_tokens": 8, "cache_read_input_tokens": 5, "cache_creation_input_tokens": 2}})}
}

// AnthropicStream is the same answer as Messages streaming events: text
// in the given pieces, tool input as input_json_delta halves, usage in
// message_start and message_delta.
func AnthropicStream(thinking string, pieces []string, calls ...Call) Reply {
	var th []string
	if thinking != "" {
		th = []string{thinking}
	}
	return AnthropicStreamThinking(th, pieces, calls...)
}

// AnthropicStreamThinking is AnthropicStream with the thinking block in
// the given pieces (thinking_delta events).
func AnthropicStreamThinking(thinking, pieces []string, calls ...Call) Reply {
	ev := func(name string, v any) string { return "event: " + name + "\ndata: " + mustJSON(v) }
	evs := []string{ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_mock", "type": "message", "role": "assistant", "content": []any{},
		"usage": map[string]any{"input_tokens": 30, "output_tokens": 1, "cache_read_input_tokens": 4}}})}
	idx := 0
	block := func(start map[string]any, deltas []map[string]any) {
		evs = append(evs, ev("content_block_start", map[string]any{"type": "content_block_start", "index": idx, "content_block": start}))
		for _, d := range deltas {
			evs = append(evs, ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": idx, "delta": d}))
		}
		evs = append(evs, ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": idx}))
		idx++
	}
	if len(thinking) > 0 {
		var ds []map[string]any
		for _, t := range thinking {
			ds = append(ds, map[string]any{"type": "thinking_delta", "thinking": t})
		}
		ds = append(ds, map[string]any{"type": "signature_delta", "signature": "sig-" + strings.Join(thinking, "")})
		block(map[string]any{"type": "thinking", "thinking": ""}, ds)
	}
	if len(pieces) > 0 {
		var ds []map[string]any
		for _, p := range pieces {
			ds = append(ds, map[string]any{"type": "text_delta", "text": p})
		}
		block(map[string]any{"type": "text", "text": ""}, ds)
	}
	stop := "end_turn"
	for _, c := range calls {
		half := len(c.Args) / 2
		block(map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": map[string]any{}}, []map[string]any{
			{"type": "input_json_delta", "partial_json": c.Args[:half]},
			{"type": "input_json_delta", "partial_json": c.Args[half:]}})
		stop = "tool_use"
	}
	evs = append(evs, ev("ping", map[string]any{"type": "ping"}))
	evs = append(evs, ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop},
		"usage": map[string]any{"output_tokens": 15, "cache_creation_input_tokens": 6}}))
	evs = append(evs, ev("message_stop", map[string]any{"type": "message_stop"}))
	return Reply{Events: evs}
}

type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }
