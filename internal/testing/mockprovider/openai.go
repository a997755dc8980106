package mockprovider

import (
	"encoding/json"
	"fmt"
)

// Call is a tool call a scripted model makes.
type Call struct {
	ID, Name string
	Args     string // JSON object text
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// OpenAI is a whole Chat Completions answer with text and tool calls.
func OpenAI(text string, calls ...Call) Reply {
	msg := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	if len(calls) > 0 {
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, map[string]any{"id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Args}})
		}
		msg["tool_calls"] = tcs
		finish = "tool_calls"
	}
	return Reply{Body: mustJSON(map[string]any{
		"id": "chatcmpl-mock", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]any{"prompt_tokens": 11, "completion_tokens": 7,
			"prompt_tokens_details": map[string]any{"cached_tokens": 3}},
	})}
}

// OpenAIStream is the same answer as server-sent chunks: the text in the
// given pieces, each tool call's arguments split in two deltas, a final
// usage chunk and [DONE].
func OpenAIStream(pieces []string, calls ...Call) Reply {
	return OpenAIStreamReasoning([]string{"thinking it over"}, pieces, calls...)
}

// OpenAIStreamReasoning is OpenAIStream with the reasoning in the given
// pieces (reasoning_content deltas) before the text.
func OpenAIStreamReasoning(reasoning, pieces []string, calls ...Call) Reply {
	var evs []string
	chunk := func(delta map[string]any, finish any) string {
		return mustJSON(map[string]any{"object": "chat.completion.chunk",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	for i, r := range reasoning {
		delta := map[string]any{"reasoning_content": r}
		if i == 0 {
			delta["role"] = "assistant"
		}
		evs = append(evs, chunk(delta, nil))
	}
	for _, p := range pieces {
		evs = append(evs, chunk(map[string]any{"content": p}, nil))
	}
	for i, c := range calls {
		half := len(c.Args) / 2
		evs = append(evs, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args[:half]}}}}, nil))
		evs = append(evs, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
			"function": map[string]any{"arguments": c.Args[half:]}}}}, nil))
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	evs = append(evs, chunk(map[string]any{}, finish))
	evs = append(evs, mustJSON(map[string]any{"object": "chat.completion.chunk", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 21, "completion_tokens": 9}}))
	evs = append(evs, "[DONE]")
	return Reply{Events: evs}
}

// Error is an error answer with an OpenAI-shaped body.
func Error(status int, msg string, header map[string]string) Reply {
	return Reply{Status: status, Header: header, Body: fmt.Sprintf(`{"error":{"message":%q,"type":"mock_error"}}`, msg)}
}
