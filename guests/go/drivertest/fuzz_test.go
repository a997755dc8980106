package drivertest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mur-go/mur/guests/go/anthropic"
	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/openai"
	"github.com/mur-go/mur/internal/testing/mockprovider"
)

// Whatever a provider answers, the translation returns a response or an
// error and never panics; a response always has a protocol stop reason
// and tool_call inputs that are JSON objects.
func fuzzDecode(f *testing.F, p driverkit.Provider, seeds ...mockprovider.Reply) {
	for _, s := range seeds {
		if s.Events != nil {
			var b bytes.Buffer
			for _, e := range s.Events {
				b.WriteString("data: " + e + "\n\n")
			}
			f.Add(b.Bytes())
		} else {
			f.Add([]byte(s.Body))
		}
	}
	f.Add([]byte(`{"choices":[{"message":{"tool_calls":[{"function":{"arguments":7}}]}}]}`))
	f.Add([]byte(`{"content":[{"type":"tool_use","input":"x"}],"stop_reason":"tool_use"}`))
	f.Add([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":-1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(r *driverkit.Response, err error) {
			if err != nil {
				return
			}
			switch r.StopReason {
			case driverkit.StopEndTurn, driverkit.StopToolCall, driverkit.StopMaxTokens:
			default:
				t.Fatalf("stop reason %q", r.StopReason)
			}
			for _, c := range r.Content {
				m, _ := c.(map[string]any)
				if m["type"] != "tool_call" {
					continue
				}
				var obj map[string]any
				if raw, _ := m["input"].(json.RawMessage); json.Unmarshal(raw, &obj) != nil || obj == nil {
					t.Fatalf("tool_call input %s is not an object", m["input"])
				}
			}
			if _, err := driverkit.Encode(r); err != nil {
				t.Fatalf("encode: %v", err)
			}
			checkEncode(t, r)
		}
		check(p.Decode(body))
		check(p.DecodeStream(bytes.NewReader(body), driverkit.NoEmitter{}))
	})
}

func FuzzOpenAIDecode(f *testing.F) {
	call := mockprovider.Call{ID: "c", Name: "n", Args: `{"a":1}`}
	fuzzDecode(f, openai.Provider{}, mockprovider.OpenAI("hi", call), mockprovider.OpenAIStream([]string{"a", "b"}, call))
}

func FuzzAnthropicDecode(f *testing.F) {
	call := mockprovider.Call{ID: "c", Name: "n", Args: `{"a":1}`}
	fuzzDecode(f, anthropic.Provider{}, mockprovider.Anthropic("t", "hi", call))
}

// Whatever the runtime sends, building the provider request does not
// panic and yields JSON.
func FuzzBuild(f *testing.F) {
	f.Add([]byte(request))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_call","input":null}]},{"role":"tool"}],"params":{"tool_choice":"required"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := driverkit.ParseRequest(data)
		if err != nil {
			return
		}
		for _, p := range []driverkit.Provider{openai.Provider{}, anthropic.Provider{}} {
			h, _, err := p.Build(driverkit.Env{Endpoint: "http://127.0.0.1:1"}, req)
			if err != nil {
				continue
			}
			if !json.Valid(h.Body) {
				t.Fatalf("body %s", h.Body)
			}
		}
	})
}
