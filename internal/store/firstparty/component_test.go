package firstparty_test

// The driver components themselves, called as the agent loop calls them
// (one request JSON per call, a fresh store each time), against the
// loopback mock provider over the host's wasi:http.

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/mockprovider"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

var guests testguest.Guests

// request is a runtime request mid-conversation: task, tool call, result.
const request = `{"max_tokens":64,"messages":[` +
	`{"content":[{"text":"list files","type":"text"}],"role":"user"},` +
	`{"content":[{"id":"c1","input":{"dir":"."},"name":"ls","type":"tool_call"}],"role":"assistant"},` +
	`{"content":[{"text":"a.txt","type":"text"}],"is_error":false,"role":"tool","tool_call_id":"c1"}],` +
	`"model":"m-1","params":{},"system":"[Capsule]\nName: t","tools":[{"name":"ls","parameters":{"type":"object"}}]}`

const secret = "sk-test-SECRET-0123456789"

type chunkLog struct {
	mu             sync.Mutex
	text, thinking []string
}

func (c *chunkLog) EmitChunk(_ context.Context, s string, thinking bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if thinking {
		c.thinking = append(c.thinking, s)
	} else {
		c.text = append(c.text, s)
	}
}

func (c *chunkLog) RequestInput(context.Context, string) (string, error) { return "", nil }

// call runs the driver guest once against endpoint with the gateway's
// credential for it (header per provider), network allowed to allow.
func call(t *testing.T, guest, endpoint, config string, cred *wasip2.Credential, allow ...string) (tools.ToolResult, *chunkLog) {
	t.Helper()
	rules, err := policy.ParseNetRules(allow)
	if err != nil {
		t.Fatal(err)
	}
	linker, err := host.NewToolLinker()
	if err != nil {
		t.Fatal(err)
	}
	env := [][2]string{{"MURMUR_INFERENCE_ENDPOINT", endpoint}, {"MURMUR_INFERENCE_API_KEY", "placeholder"}}
	if config != "" {
		env = append(env, [2]string{"MURMUR_INFERENCE_DRIVER_CONFIG", config})
	}
	wt, err := tools.NewWasmTool(tools.WasmToolConfig{Name: guest, Component: guests.Compile(t, guest), Linker: linker,
		Grants: wasip2.Grants{Env: env, Net: rules, Credential: cred}, Limits: stage.DefaultToolLimits()})
	if err != nil {
		t.Fatal(err)
	}
	chunks := &chunkLog{}
	data := request
	res, err := wt.Invoke(tools.WithTaskIO(context.Background(), chunks), tools.ToolInput{Data: &data})
	if err != nil {
		t.Fatalf("%s: %v", guest, err)
	}
	return res, chunks
}

func credential(t *testing.T, url, header, prefix string) *wasip2.Credential {
	t.Helper()
	origin, err := wasip2.OriginOf(url)
	if err != nil {
		t.Fatal(err)
	}
	return &wasip2.Credential{Origin: origin, Header: header, Prefix: prefix, Placeholder: "placeholder", Secret: secret}
}

type provider struct {
	name, guest    string
	header, prefix string
	text           func(string) mockprovider.Reply
	stream         func([]string) mockprovider.Reply
}

var providers = []provider{
	{"openai", testguest.DriverOpenAIGo, "Authorization", "Bearer ",
		func(s string) mockprovider.Reply { return mockprovider.OpenAI(s) },
		func(p []string) mockprovider.Reply { return mockprovider.OpenAIStream(p) }},
	{"anthropic", testguest.DriverAnthropicGo, "X-Api-Key", "",
		func(s string) mockprovider.Reply { return mockprovider.Anthropic("", s) },
		func(p []string) mockprovider.Reply { return mockprovider.AnthropicStream("plan", p) }},
}

func data(t *testing.T, r tools.ToolResult) map[string]any {
	t.Helper()
	if r.Status != tools.StatusPassed || r.Data == nil {
		t.Fatalf("status %v summary %v", r.Status, deref(r.Summary))
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(*r.Data), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

func TestDriverComponentsAnswer(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name+" whole", func(t *testing.T) {
			srv := mockprovider.New(t, p.text("hello there"))
			r, _ := call(t, p.guest, srv.URL, `{"stream":false}`, credential(t, srv.URL, p.header, p.prefix), srv.URL)
			out := data(t, r)
			if out["stop_reason"] != "end_turn" || !strings.Contains(*r.Data, `"text":"hello there"`) {
				t.Errorf("data %s", *r.Data)
			}
			if got := srv.Requests()[0].Header.Get(p.header); got != p.prefix+secret {
				t.Errorf("%s reached the provider as %q, want the key", p.header, got)
			}
		})
		t.Run(p.name+" streamed", func(t *testing.T) {
			srv := mockprovider.New(t, p.stream([]string{"hel", "lo ", "there"}))
			r, chunks := call(t, p.guest, srv.URL, "", nil, srv.URL)
			data(t, r)
			if got := strings.Join(chunks.text, "|"); got != "hel|lo |there" {
				t.Errorf("chunks %q", got)
			}
			if len(chunks.thinking) == 0 {
				t.Error("no thinking chunks")
			}
		})
		t.Run(p.name+" 4 MiB", func(t *testing.T) {
			big := strings.Repeat("y", 4<<20)
			srv := mockprovider.New(t, p.text(big))
			r, _ := call(t, p.guest, srv.URL, `{"stream":false}`, nil, srv.URL)
			data(t, r)
			if len(*r.Data) < 4<<20 {
				t.Errorf("answer is %d bytes", len(*r.Data))
			}
		})
		t.Run(p.name+" errors", func(t *testing.T) {
			for _, tc := range []struct {
				reply mockprovider.Reply
				class string
			}{
				{mockprovider.Error(429, "slow", map[string]string{"Retry-After": "3"}), "rate_limited"},
				{mockprovider.Error(500, "boom", nil), "server_error"},
				{mockprovider.Error(401, "who are you", nil), "credential_rejected"},
				{mockprovider.Reply{Body: "{not json"}, "malformed_response"},
				// A hostile provider nesting a million arrays: the hand-written
				// reader gives up at its depth bound, encoding/json at its own.
				{mockprovider.Reply{Body: `{"content":[],"choices":[{"message":{"content":` + strings.Repeat("[", 1<<20)}, "malformed_response"},
			} {
				srv := mockprovider.New(t, tc.reply)
				r, _ := call(t, p.guest, srv.URL, `{"stream":false}`, nil, srv.URL)
				md := map[string]string{}
				for _, kv := range r.Metadata {
					md[kv.Key] = kv.Value
				}
				if r.Status != tools.StatusError || md["error_class"] != tc.class {
					t.Errorf("%s: status %v metadata %v summary %s", tc.class, r.Status, md, deref(r.Summary))
				}
			}
		})
	}
}

// TestKeyOnlyToTheEndpointOrigin: the driver follows a redirect from the
// endpoint to a second loopback server; the endpoint gets the key, the
// second server only what the driver sent (the placeholder).
func TestKeyOnlyToTheEndpointOrigin(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			second := mockprovider.New(t, p.text("moved"))
			first := mockprovider.New(t, mockprovider.Reply{Redirect: second.URL + "/elsewhere"})
			r, _ := call(t, p.guest, first.URL, `{"stream":false}`, credential(t, first.URL, p.header, p.prefix), first.URL, second.URL)
			data(t, r)
			if got := first.Requests()[0].Header.Get(p.header); got != p.prefix+secret {
				t.Errorf("the endpoint got %s %q, want the key", p.header, got)
			}
			for _, req := range second.Requests() {
				for name, vs := range req.Header {
					for _, v := range vs {
						if strings.Contains(v, secret) {
							t.Errorf("the redirect target got the key in %s", name)
						}
					}
				}
			}
			if len(second.Requests()) != 1 {
				t.Errorf("redirect target got %d requests", len(second.Requests()))
			}
		})
	}
}

// TestEchoedKeyIsRedacted: a provider that echoes the key in its answer
// (headers and body) hands the driver only the redaction.
func TestEchoedKeyIsRedacted(t *testing.T) {
	srv := mockprovider.New(t)
	srv.SetFallback(mockprovider.Reply{Header: map[string]string{"X-Echo": secret},
		Body: mockprovider.OpenAI("your key is " + secret).Body})
	r, _ := call(t, testguest.DriverOpenAIGo, srv.URL, `{"stream":false}`,
		credential(t, srv.URL, "Authorization", "Bearer "), srv.URL)
	if strings.Contains(*r.Data, secret) || !strings.Contains(*r.Data, wasip2.Redacted) {
		t.Errorf("data %s", *r.Data)
	}
}
