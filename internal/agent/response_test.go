package agent

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseResponse(t *testing.T) {
	cases := []struct {
		name  string
		raw   string
		stop  string
		text  string
		calls []toolCall
		err   string
	}{
		{"end turn, texts joined", `{"stop_reason":"end_turn","content":[{"type":"text","text":"a"},{"type":"thinking","text":"x"},{"type":"text","text":"b"}]}`,
			"end_turn", "a\nb", nil, ""},
		{"content missing is empty", `{"stop_reason":"end_turn"}`, "end_turn", "", nil, ""},
		{"tool calls in order, input re-encoded sorted, absent input is {}",
			`{"stop_reason":"tool_call","content":[{"type":"text","text":"let me"},{"type":"tool_call","id":"2","name":"b","input":{"z":1,"a":[1.0]}},{"type":"tool_call","id":"1","name":"a"}]}`,
			"tool_call", "let me", []toolCall{{ID: "2", Name: "b", Input: `{"a":[1.0],"z":1}`}, {ID: "1", Name: "a", Input: `{}`}}, ""},
		{"error carried", `{"stop_reason":"error","error":"HTTP 500: down"}`, "error", "", nil, ""},
		{"not json", `nope`, "", "", nil, "failed to parse driver response"},
		{"trailing data", `{"stop_reason":"end_turn"} {}`, "", "", nil, "unexpected data"},
		{"no stop reason", `{"content":[]}`, "", "", nil, "stop_reason is missing"},
		{"content a string", `{"stop_reason":"end_turn","content":"hi"}`, "", "", nil, "content is not an array"},
		{"null", `null`, "", "", nil, "not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := parseResponse(c.raw)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			calls, err := r.toolCalls()
			if err != nil {
				t.Fatal(err)
			}
			if r.StopReason != c.stop || r.text() != c.text || !reflect.DeepEqual(calls, c.calls) {
				t.Errorf("got stop %q text %q calls %+v; want %q %q %+v", r.StopReason, r.text(), calls, c.stop, c.text, c.calls)
			}
		})
	}
}
