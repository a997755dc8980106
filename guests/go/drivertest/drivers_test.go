package drivertest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mur-go/mur/guests/go/anthropic"
	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/openai"
	"github.com/mur-go/mur/guests/go/wasihttp"
	"github.com/mur-go/mur/internal/testing/mockprovider"
)

// request is a runtime request after one tool round trip: the user's
// task, the assistant's thinking, text and tool call, and the result.
const request = `{"max_tokens":100,"messages":[` +
	`{"content":[{"text":"list files","type":"text"}],"role":"user"},` +
	`{"content":[{"signature":"sig-1","text":"hmm","type":"thinking"},{"text":"looking","type":"text"},{"id":"c1","input":{"dir":"."},"name":"ls","type":"tool_call"}],"role":"assistant"},` +
	`{"content":[{"text":"a.txt","type":"text"}],"is_error":false,"role":"tool","tool_call_id":"c1"}],` +
	`"model":"m-1","params":{"temperature":0.5},"system":"[Capsule]\nName: t","tools":[{"description":"list","name":"ls","parameters":{"type":"object"}}]}`

type recorder struct{ chunks, thinking []string }

func (r *recorder) Chunk(s string)    { r.chunks = append(r.chunks, s) }
func (r *recorder) Thinking(s string) { r.thinking = append(r.thinking, s) }

func run(t *testing.T, p driverkit.Provider, srv *mockprovider.Server, config string) (driverkit.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	env := driverkit.Env{Endpoint: srv.URL, APIKey: "placeholder", Config: config}
	return driverkit.Run(p, env, wasihttp.NewNet(http.DefaultClient), rec, []byte(request)), rec
}

func decode(t *testing.T, r driverkit.Result) map[string]any {
	t.Helper()
	if r.Status != driverkit.StatusPassed {
		t.Fatalf("status %d: %s", r.Status, r.Summary)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(r.Data), &out); err != nil {
		t.Fatalf("data %q: %v", r.Data, err)
	}
	return out
}

func TestAnswers(t *testing.T) {
	call := mockprovider.Call{ID: "c2", Name: "cat", Args: `{"path":"a.txt"}`}
	noStream := `{"stream":false}`
	for _, tc := range []struct {
		name     string
		p        driverkit.Provider
		reply    mockprovider.Reply
		config   string
		want     string // the response data
		chunks   string
		thinking string
	}{
		{"openai whole", openai.Provider{}, mockprovider.OpenAI("reading", call), noStream,
			`{"stop_reason":"tool_call","content":[{"text":"reading","type":"text"},{"id":"c2","input":{"path":"a.txt"},"name":"cat","type":"tool_call"}],"usage":{"input_tokens":11,"output_tokens":7,"cached_tokens":3}}`, "", ""},
		{"openai stream", openai.Provider{}, mockprovider.OpenAIStream([]string{"rea", "ding"}, call), "",
			`{"stop_reason":"tool_call","content":[{"signature":"","text":"thinking it over","type":"thinking"},{"text":"reading","type":"text"},{"id":"c2","input":{"path":"a.txt"},"name":"cat","type":"tool_call"}],"usage":{"input_tokens":21,"output_tokens":9}}`, "rea|ding", "thinking it over"},
		{"openai end turn", openai.Provider{}, mockprovider.OpenAI("done"), noStream,
			`{"stop_reason":"end_turn","content":[{"text":"done","type":"text"}],"usage":{"input_tokens":11,"output_tokens":7,"cached_tokens":3}}`, "", ""},
		{"anthropic whole", anthropic.Provider{}, mockprovider.Anthropic("plan", "reading", call), noStream,
			`{"stop_reason":"tool_call","content":[{"signature":"sig-plan","text":"plan","type":"thinking"},{"text":"reading","type":"text"},{"id":"c2","input":{"path":"a.txt"},"name":"cat","type":"tool_call"}],"usage":{"input_tokens":12,"output_tokens":8,"cached_tokens":5,"cache_write_tokens":2}}`, "", ""},
		{"anthropic stream", anthropic.Provider{}, mockprovider.AnthropicStream("plan", []string{"rea", "ding"}, call), "",
			`{"stop_reason":"tool_call","content":[{"signature":"sig-plan","text":"plan","type":"thinking"},{"text":"reading","type":"text"},{"id":"c2","input":{"path":"a.txt"},"name":"cat","type":"tool_call"}],"usage":{"input_tokens":30,"output_tokens":15,"cached_tokens":4,"cache_write_tokens":6}}`, "rea|ding", "plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mockprovider.New(t, tc.reply)
			r, rec := run(t, tc.p, srv, tc.config)
			decode(t, r)
			if r.Data != tc.want {
				t.Errorf("data\n got %s\nwant %s", r.Data, tc.want)
			}
			if got := strings.Join(rec.chunks, "|"); got != tc.chunks {
				t.Errorf("chunks %q, want %q", got, tc.chunks)
			}
			if got := strings.Join(rec.thinking, "|"); got != tc.thinking {
				t.Errorf("thinking chunks %q, want %q", got, tc.thinking)
			}
		})
	}
}

func TestRequestTranslation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		p      driverkit.Provider
		reply  mockprovider.Reply
		path   string
		header [2]string
		want   string
	}{
		{"openai", openai.Provider{}, mockprovider.OpenAI("ok"), "/v1/chat/completions", [2]string{"Authorization", "Bearer placeholder"},
			`{"max_tokens":100,"messages":[{"content":"[Capsule]\nName: t","role":"system"},{"content":"list files","role":"user"},{"content":"looking","role":"assistant","tool_calls":[{"function":{"arguments":"{\"dir\":\".\"}","name":"ls"},"id":"c1","type":"function"}]},{"content":"a.txt","role":"tool","tool_call_id":"c1"}],"model":"m-1","temperature":0.5,"tools":[{"function":{"description":"list","name":"ls","parameters":{"type":"object"}},"type":"function"}]}`},
		{"anthropic", anthropic.Provider{}, mockprovider.Anthropic("", "ok"), "/v1/messages", [2]string{"X-Api-Key", "placeholder"},
			`{"max_tokens":100,"messages":[{"content":[{"text":"list files","type":"text"}],"role":"user"},{"content":[{"text":"looking","type":"text"},{"id":"c1","input":{"dir":"."},"name":"ls","type":"tool_use"}],"role":"assistant"},{"content":[{"content":"a.txt","tool_use_id":"c1","type":"tool_result"}],"role":"user"}],"model":"m-1","system":"[Capsule]\nName: t","temperature":0.5,"tools":[{"description":"list","input_schema":{"type":"object"},"name":"ls"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mockprovider.New(t, tc.reply)
			decode(t, func() driverkit.Result { r, _ := run(t, tc.p, srv, `{"stream":false}`); return r }())
			got := srv.Requests()
			if len(got) != 1 {
				t.Fatalf("%d requests", len(got))
			}
			if got[0].Path != tc.path {
				t.Errorf("path %s, want %s", got[0].Path, tc.path)
			}
			if v := got[0].Header.Get(tc.header[0]); v != tc.header[1] {
				t.Errorf("%s = %q, want %q", tc.header[0], v, tc.header[1])
			}
			if string(got[0].Body) != tc.want {
				t.Errorf("body\n got %s\nwant %s", got[0].Body, tc.want)
			}
		})
	}
}

func TestAnthropicThinkingResent(t *testing.T) {
	srv := mockprovider.New(t, mockprovider.Anthropic("", "ok"))
	r, _ := run(t, anthropic.Provider{}, srv, `{"stream":false,"thinking":{"budget_tokens":1024}}`)
	decode(t, r)
	body := string(srv.Requests()[0].Body)
	for _, want := range []string{`"thinking":{"budget_tokens":1024,"type":"enabled"}`, `{"signature":"sig-1","thinking":"hmm","type":"thinking"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %s:\n%s", want, body)
		}
	}
	if h := srv.Requests()[0].Header.Get("anthropic-version"); h != anthropic.DefaultVersion {
		t.Errorf("anthropic-version %q", h)
	}
}

func TestFailures(t *testing.T) {
	for _, p := range []struct {
		name string
		p    driverkit.Provider
	}{{"openai", openai.Provider{}}, {"anthropic", anthropic.Provider{}}} {
		for _, tc := range []struct {
			name      string
			reply     mockprovider.Reply
			summary   string // prefix
			class     string
			transient string
			extra     [][2]string
		}{
			{"429", mockprovider.Error(429, "slow down", map[string]string{"Retry-After": "2"}), "HTTP 429: ", driverkit.ClassRateLimited, "true",
				[][2]string{{"provider_status", "429"}, {"retry_after_ms", "2000"}}},
			{"500", mockprovider.Error(500, "boom", nil), "HTTP 500: ", driverkit.ClassServer, "true", [][2]string{{"provider_status", "500"}}},
			{"401", mockprovider.Error(401, "bad key", nil), "HTTP 401: ", driverkit.ClassCredentialRejected, "false", [][2]string{{"provider_status", "401"}}},
			{"context", mockprovider.Error(400, "prompt is too long: maximum context length exceeded", nil), "HTTP 400: ", driverkit.ClassContextLength, "false", [][2]string{{"provider_status", "400"}}},
			{"malformed", mockprovider.Reply{Body: `{"choices":[{"message":`}, "malformed response from ", driverkit.ClassMalformed, "false", [][2]string{{"provider_status", "200"}}},
			{"not an answer", mockprovider.Reply{Body: `[1,2,3]`}, "malformed response from ", driverkit.ClassMalformed, "false", [][2]string{{"provider_status", "200"}}},
		} {
			t.Run(p.name+" "+tc.name, func(t *testing.T) {
				srv := mockprovider.New(t, tc.reply)
				r, _ := run(t, p.p, srv, `{"stream":false}`)
				if r.Status != driverkit.StatusError || !strings.HasPrefix(r.Summary, tc.summary) {
					t.Fatalf("got status %d summary %q, want error %q…", r.Status, r.Summary, tc.summary)
				}
				var data map[string]string
				if err := json.Unmarshal([]byte(r.Data), &data); err != nil || data["error"] != r.Summary || data["stop_reason"] != "error" {
					t.Errorf("data %s does not follow the error convention", r.Data)
				}
				want := append([][2]string{{"transient", tc.transient}, {"error_class", tc.class}}, tc.extra...)
				if got, w := mustJSON(r.Metadata), mustJSON(want); got != w {
					t.Errorf("metadata %s, want %s", got, w)
				}
			})
		}
	}
}

func TestFourMiBAnswer(t *testing.T) {
	big := strings.Repeat("x", 4<<20)
	for _, tc := range []struct {
		name  string
		p     driverkit.Provider
		reply mockprovider.Reply
	}{
		{"openai", openai.Provider{}, mockprovider.OpenAI(big)},
		{"anthropic", anthropic.Provider{}, mockprovider.Anthropic("", big)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mockprovider.New(t, tc.reply)
			r, _ := run(t, tc.p, srv, `{"stream":false}`)
			out := decode(t, r)
			text := out["content"].([]any)[0].(map[string]any)["text"].(string)
			if len(text) != len(big) {
				t.Errorf("text is %d bytes, want %d", len(text), len(big))
			}
		})
	}
}

func TestRedirectFollowed(t *testing.T) {
	second := mockprovider.New(t, mockprovider.OpenAI("moved"))
	first := mockprovider.New(t, mockprovider.Reply{Redirect: second.URL + "/v1/chat/completions"})
	r, _ := run(t, openai.Provider{}, first, `{"stream":false}`)
	decode(t, r)
	if n := len(second.Requests()); n != 1 {
		t.Fatalf("second server got %d requests", n)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
