package drivertest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/guests/go/anthropic"
	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/openai"
)

// requestSeeds are runtime requests of every shape, canonical or odd.
var requestSeeds = []struct {
	name string
	data string
	fast bool // the hand-written reader takes it
}{
	{"canonical", request, true},
	{"empty object", `{}`, true},
	{"spaces", " {\n\t\"model\" : \"m\" , \"messages\" : [ { \"role\" : \"user\" , \"content\" : [ {\"type\":\"text\", \"text\":\"hi\"} ] } ] } \r\n", true},
	{"escapes", `{"system":"a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20ac\ud83d\ude00<>&"}`, true},
	{"lone surrogates", `{"system":"\ud800x\udc00\ud800\u0041\ud83d\ud83d\ude00"}`, true},
	{"invalid utf-8", "{\"system\":\"a\xff\xc3(\xe2\x80\xa8b\"}", true},
	{"unicode", `{"system":"héllo — 世界 😀"}`, true},
	{"unknown keys", `{"x":{"a":[1,-2.5e+3,true,false,null,"s\u0000"]},"messages":[{"role":"user","z":0,"content":[{"type":"redacted_thinking","data":"opaque","cache":{"t":1}}]}]}`, true},
	{"raw values", `{"params":{"temperature":0.5,"tool_choice":"required","n":null,"stop":[ "a" , "b" ]},"tools":[{"name":"t","parameters":{ "type" : "object" }}],"messages":[{"role":"assistant","content":[{"type":"tool_call","id":"c","name":"n","input": {"a" : [1, 2]}}]}]}`, true},
	{"null input", `{"messages":[{"role":"assistant","content":[{"type":"tool_call","input":null}]}]}`, true},
	{"image", `{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}},{"type":"text","text":"what?"}]}]}`, true},
	{"tool result", `{"messages":[{"role":"tool","tool_call_id":"c","is_error":true,"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}`, true},
	{"max uint32", `{"max_tokens":4294967295}`, true},
	{"duplicate key", `{"model":"a","model":"b"}`, false},
	{"duplicate messages", `{"messages":[{"role":"user"}],"messages":[{"content":[]}]}`, false},
	{"folded key", `{"Model":"a"}`, false},
	{"folded non-ASCII key", `{"ſystem":"a"}`, false},
	{"null string", `{"model":null}`, false},
	{"null messages", `{"messages":null}`, false},
	{"null block", `{"messages":[{"content":[null]}]}`, false},
	{"null source", `{"messages":[{"content":[{"type":"image","source":null}]}]}`, false},
	{"null params", `{"params":null}`, false},
	{"top null", `null`, false},
	{"string block", `{"messages":[{"content":["x"]}]}`, false},
	{"wrong type", `{"model":1}`, false},
	{"negative max", `{"max_tokens":-1}`, false},
	{"fraction max", `{"max_tokens":1.5}`, false},
	{"exponent max", `{"max_tokens":1e2}`, false},
	{"overflow max", `{"max_tokens":4294967296}`, false},
	{"string bool", `{"messages":[{"is_error":"yes"}]}`, false},
	{"trailing data", `{} {}`, false},
	{"trailing comma", `{"model":"m",}`, false},
	{"bad escape", `{"model":"\x"}`, false},
	{"control char", "{\"model\":\"a\nb\"}", false},
	{"bad number", `{"x":01}`, false},
	{"bad literal", `{"x":tru}`, false},
	{"unterminated", `{"model":"m`, false},
	{"array", `[]`, false},
	{"empty", ``, false},
	{"deep", `{"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`, false},
}

// The hand-written reader reads every request exactly as encoding/json
// does, or leaves it to encoding/json.
func TestParseRequestMatchesStd(t *testing.T) {
	for _, tc := range requestSeeds {
		t.Run(tc.name, func(t *testing.T) {
			_, ok := driverkit.ParseRequestFast([]byte(tc.data))
			if ok != tc.fast {
				t.Errorf("fast path taken: %v, want %v", ok, tc.fast)
			}
			checkParse(t, []byte(tc.data))
		})
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s.data))
	}
	f.Fuzz(checkParse)
}

func checkParse(t *testing.T, data []byte) {
	want, wantErr := driverkit.ParseRequestStd(data)
	got, err := driverkit.ParseRequest(data)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, encoding/json's %v", err, wantErr)
	}
	if err != nil {
		if err.Error() != wantErr.Error() {
			t.Fatalf("error %q, want %q", err, wantErr)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read\n%#v\nencoding/json read\n%#v", got, want)
	}
	checkBodies(t, got)
}

// checkBodies holds the hand-written provider bodies to the ones
// encoding/json made, under each config that changes the body.
func checkBodies(t *testing.T, req *driverkit.Request) {
	t.Helper()
	for _, cfg := range []struct {
		config      string
		field       string
		stream, use bool
	}{
		{`{"stream":false}`, "", false, false},
		{``, "", true, true},
		{`{"stream_usage":false,"max_tokens_field":"max_completion_tokens"}`, "max_completion_tokens", true, false},
		{`{"stream":false,"max_tokens_field":"model"}`, "model", false, false},
	} {
		h, _, err := openai.Provider{}.Build(driverkit.Env{Endpoint: "http://127.0.0.1:1", Config: cfg.config}, req)
		want, wantErr := refOpenAIBody(req, cfg.field, cfg.stream, cfg.use)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("openai %s: error %v, encoding/json's %v", cfg.config, err, wantErr)
		}
		if err == nil && string(h.Body) != string(want) {
			t.Fatalf("openai %s body\n got %s\nwant %s", cfg.config, h.Body, want)
		}
	}
	for _, cfg := range []string{`{"stream":false}`, ``, `{"thinking":{"budget_tokens":1024}}`} {
		h, _, err := anthropic.Provider{}.Build(driverkit.Env{Endpoint: "http://127.0.0.1:1", Config: cfg}, req)
		want, wantErr := refAnthropicBody(req, cfg)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("anthropic %s: error %v, encoding/json's %v", cfg, err, wantErr)
		}
		if err == nil && string(h.Body) != string(want) {
			t.Fatalf("anthropic %s body\n got %s\nwant %s", cfg, h.Body, want)
		}
	}
}

// AppendString and AppendRaw write what json.Marshal writes.
func FuzzAppendJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "<a href=\"x\">&amp;</a>", "\x00\x1f\x7f\b\f\n\r\t", "\u2028\u2029", "a\xffb\xe2\x80", "héllo 😀", ` { "a" : [ 1 , "<\u2028>" ] } `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := driverkit.AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if !json.Valid([]byte(s)) {
			return
		}
		want, err := json.Marshal(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := driverkit.AppendRaw(nil, []byte(s)); string(got) != string(want) {
			t.Fatalf("AppendRaw(%q) = %s, want %s", s, got, want)
		}
	})
}

// openaiConfig mirrors the openai driver's config for ReadConfig's
// differential test.
type openaiConfig struct {
	driverkit.Config
	MaxTokensField string `json:"max_tokens_field"`
	StreamUsage    *bool  `json:"stream_usage"`
}

func readOpenAIConfig(raw string) (openaiConfig, bool) {
	var cfg openaiConfig
	base, ok := driverkit.ReadConfig(raw, []string{"max_tokens_field", "stream_usage"}, func(r *driverkit.Reader, i int) {
		switch i {
		case 0:
			cfg.MaxTokensField = r.Str()
		case 1:
			b := r.Bool()
			cfg.StreamUsage = &b
		}
	})
	cfg.Config = base
	return cfg, ok
}

var configSeeds = []struct {
	raw  string
	fast bool
}{
	{``, true}, {` `, true}, {`{}`, true}, {`{"stream":false}`, true},
	{`{"stream":true,"stream_usage":false,"max_tokens_field":"max_completion_tokens","headers":{"HTTP-Referer":"x","a":"b"},"other":[1]}`, true},
	{`{"Stream":false}`, false}, {`{"stream":null}`, false}, {`{"stream":false,"stream":true}`, false},
	{`{"headers":{"a":1}}`, false}, {`{"headers":null}`, false}, {`[]`, false}, {`{`, false}, {`{"stream":"no"}`, false},
}

// ReadConfig reads every config as encoding/json does, or leaves it.
func TestReadConfigMatchesStd(t *testing.T) {
	for _, tc := range configSeeds {
		if _, ok := readOpenAIConfig(tc.raw); ok != tc.fast {
			t.Errorf("%s: fast path taken: %v, want %v", tc.raw, ok, tc.fast)
		}
		checkConfig(t, tc.raw)
	}
}

func FuzzReadConfig(f *testing.F) {
	for _, s := range configSeeds {
		f.Add(s.raw)
	}
	f.Fuzz(checkConfig)
}

func checkConfig(t *testing.T, raw string) {
	got, ok := readOpenAIConfig(raw)
	if !ok {
		return
	}
	var want openaiConfig
	if err := driverkit.ParseConfig(raw, &want); err != nil {
		t.Fatalf("%q read by hand, but encoding/json says %v", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read %+v, encoding/json read %+v", raw, got, want)
	}
}

// EncodeResponse writes what Encode writes.
func TestEncodeResponseMatchesEncode(t *testing.T) {
	odd := "<a> & \"q\" \\ \x01 \u2028 \xff é 😀"
	for _, r := range []*driverkit.Response{
		{StopReason: "end_turn", Content: []any{}},
		{StopReason: "end_turn"},
		{StopReason: odd, Content: []any{driverkit.TextBlock(odd), driverkit.ThinkingBlock(odd, odd),
			driverkit.ToolCallBlock(odd, odd, json.RawMessage(" { \"a\" : \"<\u2028>\" } ")),
			map[string]any{"type": "redacted_thinking", "data": odd}},
			Usage: &driverkit.Usage{InputTokens: 1, CachedTokens: 1 << 60, ThinkingTokens: 3}},
		{StopReason: "x", Content: []any{map[string]any{"n": 1}}},
		{StopReason: "x", Content: []any{"not a block"}},
		{StopReason: "x", Content: []any{driverkit.ToolCallBlock("i", "n", json.RawMessage("{"))}},
		{StopReason: "x", Usage: &driverkit.Usage{}},
	} {
		checkEncode(t, r)
	}
	f := &driverkit.Failure{Msg: odd}
	want, _ := driverkit.Encode(map[string]string{"error": odd, "stop_reason": "error"})
	if got := f.Result().Data; got != want {
		t.Errorf("failure data %s, want %s", got, want)
	}
}

func checkEncode(t *testing.T, r *driverkit.Response) {
	t.Helper()
	got, err := driverkit.EncodeResponse(r)
	want, wantErr := driverkit.Encode(r)
	if got != want || (err != nil) != (wantErr != nil) {
		t.Fatalf("EncodeResponse\n%s (%v)\nEncode\n%s (%v)", got, err, want, wantErr)
	}
}

var completionSeeds = []string{
	`{"choices":[{"finish_reason":"stop","index":0,"message":{"content":"ok","role":"assistant","refusal":null}}],"id":"x","usage":{"completion_tokens":7,"prompt_tokens":11,"prompt_tokens_details":{"cached_tokens":3,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":2}}}`,
	`{"choices":[{"finish_reason":"tool_calls","message":{"content":null,"reasoning_content":"hm","tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"n","arguments":"{\"a\":1}"}},{"function":{"arguments":{"b":2}}}]}}]}`,
	`{"choices":[{"delta":{"content":"a","tool_calls":[{"index":-1,"function":null}]},"finish_reason":null}],"usage":null}`,
	`{"choices":[{"delta":{"content":[{"type":"text","text":"x"}]}}]}`,
	`{"error":{"message":"slow","type":"rate_limit","code":429}}`,
	`{"choices":null,"error":null}`,
	`{"choices":[{"message":{"tool_calls":[{"index":1.5}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"index":- 1}]}}]}`,
	`{"choices":[{"message":{"tool_calls":[{"index":9223372036854775808}]}}]}`,
	`{"Choices":[]}`, `{"choices":[],"choices":[]}`, `[1,2,3]`, `{"choices":[{"message":`, `{"usage":{"prompt_tokens":-1}}`,
}

var messageSeeds = []string{
	`{"id":"m","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"text","text":"hi","citations":null},{"type":"tool_use","id":"c","name":"n","input":{"a":1}},{"type":"redacted_thinking","data":"x"}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":3,"cache_creation_input_tokens":null}}`,
	`{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`,
	`{"type":"message_start","message":{"content":[],"usage":{"input_tokens":5}}}`,
	`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"c","name":"n","input":{}}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}`,
	`{"type":"content_block_delta","index":0}`, `{"type":"content_block_delta","index":0,"delta":null}`,
	`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}`,
	`{"content":null,"stop_reason":null}`, `{"Content":[]}`, `{"index":1.5}`, `{"index":-3}`, `[]`, `{"content":[{"type":"text","text":"a"}],"stop_reason":"end_turn"}`,
}

// Both drivers read provider answers and stream events as encoding/json
// does.
func FuzzProviderJSON(f *testing.F) {
	for _, s := range append(completionSeeds, messageSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		same := func(what string, got *driverkit.Response, err error, want *driverkit.Response, wantErr error) {
			if (err != nil) != (wantErr != nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Fatalf("%s: error %v, encoding/json's %v", what, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %#v, encoding/json's %#v", what, got, want)
			}
		}
		stream := append(append([]byte("data: "), bytes.ReplaceAll(body, []byte("\n"), nil)...), "\n\n"...)
		got, err := openai.Provider{}.Decode(body)
		want, wantErr := openai.DecodeStd(body)
		same("openai whole", got, err, want, wantErr)
		got, err = openai.Provider{}.DecodeStream(bytes.NewReader(stream), driverkit.NoEmitter{})
		want, wantErr = openai.DecodeStreamStd(bytes.NewReader(stream), driverkit.NoEmitter{})
		same("openai stream", got, err, want, wantErr)
		got, err = anthropic.Provider{}.Decode(body)
		want, wantErr = anthropic.DecodeStd(body)
		same("anthropic whole", got, err, want, wantErr)
		got, err = anthropic.Provider{}.DecodeStream(bytes.NewReader(stream), driverkit.NoEmitter{})
		want, wantErr = anthropic.DecodeStreamStd(bytes.NewReader(stream), driverkit.NoEmitter{})
		same("anthropic stream", got, err, want, wantErr)
	})
}
