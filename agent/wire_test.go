package agent

import (
	"testing"
)

func TestRequestEncoding(t *testing.T) {
	assistant := []any{}
	if err := decode(`[{"type":"tool_call","name":"echo","id":"c1","input":{"z":1,"a":{"y":2.50,"b":"<&>"}}},{"type":"thinking","text":"t","signature":"s"}]`, &assistant); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  request
		want string
	}{
		{"first turn, no tools", request{Model: "m", MaxTokens: 8192, System: "[Capsule]\nName: x",
			Messages: []any{userMessage("do <it> & go")}},
			`{"max_tokens":8192,"messages":[{"content":[{"text":"do <it> & go","type":"text"}],"role":"user"}],"model":"m","params":{},"system":"[Capsule]\nName: x","tools":[]}`},
		{"tool round, keys sorted at every level, numbers kept", request{Model: "m", MaxTokens: 1, System: "s",
			Messages: []any{userMessage("t"), assistantMessage(assistant), toolMessage("c1", true, "boom")},
			Tools:    []any{map[string]any{"parameters": map[string]any{"type": "object", "properties": map[string]any{}}, "name": "echo"}}},
			`{"max_tokens":1,"messages":[{"content":[{"text":"t","type":"text"}],"role":"user"},` +
				`{"content":[{"id":"c1","input":{"a":{"b":"<&>","y":2.50},"z":1},"name":"echo","type":"tool_call"},{"signature":"s","text":"t","type":"thinking"}],"role":"assistant"},` +
				`{"content":[{"text":"boom","type":"text"}],"is_error":true,"role":"tool","tool_call_id":"c1"}],` +
				`"model":"m","params":{},"system":"s","tools":[{"name":"echo","parameters":{"properties":{},"type":"object"}}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.req.encode()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("request\n got  %s\n want %s", got, c.want)
			}
		})
	}
}
