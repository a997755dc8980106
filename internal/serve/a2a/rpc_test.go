package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mur-go/mur/internal/base/httpbound"
	"github.com/mur-go/mur/internal/format/manifest"
)

// malformed are JSON-RPC bodies every binding must answer with an error.
var malformed = []struct {
	name, body string
	code       float64
}{
	{"not JSON", `{"jsonrpc":`, -32700},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}]`, -32602},
	{"no method", `{"jsonrpc":"2.0","id":1,"params":{}}`, -32600},
	{"wrong jsonrpc", `{"jsonrpc":"1.0","id":1,"method":"message/send","params":{}}`, -32600},
	{"object id", `{"jsonrpc":"2.0","id":{},"method":"message/send","params":{}}`, -32600},
	{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"tasks/explode","params":{}}`, -32601},
	{"no message", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}`, -32602},
	{"parts not a list", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"user","parts":"x"}}}`, -32602},
	{"empty parts", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"user","parts":[]}}}`, -32602},
	{"get without id", `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}}`, -32602},
}

func TestMalformedRequestsGetJSONRPCErrors(t *testing.T) {
	s := serve(t)
	for _, m := range malformed {
		t.Run(m.name, func(t *testing.T) {
			got := rpc(t, s.url+"/", m.body, nil)
			e, ok := got["error"].(map[string]any)
			if !ok || got["http_status"] != float64(200) && got["http_status"] != float64(400) {
				t.Fatalf("reply %v, want a JSON-RPC error", got)
			}
			if e["code"] != m.code {
				t.Errorf("code %v (%v), want %v", e["code"], e["message"], m.code)
			}
		})
	}
}

// FuzzRequestDecoder feeds arbitrary bodies to both JSON-RPC versions:
// every reply is a JSON-RPC response or an SSE stream, and nothing panics.
func FuzzRequestDecoder(f *testing.F) {
	for _, m := range malformed {
		f.Add([]byte(m.body), false)
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"GetTask","params":{"id":"tsk_1"}}`), true)
	o := ServerOptions{Lifecycle: manifest.Lifecycle{TaskAcceptance: AcceptQueue, AfterTask: "sleep", QueueDepth: 1}}
	watch := newWatchHub("")
	reg := newRegistry(AcceptQueue, 1, 16, watch)
	m, err := newMux(context.Background(), o, reg, watch, "http://localhost:1", httpbound.New(httpbound.Limits{}, nil))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, v1 bool) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a stream that starts returns at once
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if v1 {
			req.Header.Set(versionHeader, "1.0")
		}
		// The route, past the body bounds: a recorder has no connection
		// whose reads they could bound.
		w := httptest.NewRecorder()
		m.route(w, req)
		if w.Header().Get("Content-Type") == "text/event-stream" {
			return
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			Result  json.RawMessage `json:"result"`
			Error   *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || resp.JSONRPC != "2.0" || (resp.Error == nil) == (resp.Result == nil) {
			t.Fatalf("body %q: reply %q is not a JSON-RPC response", body, w.Body.Bytes())
		}
	})
}
