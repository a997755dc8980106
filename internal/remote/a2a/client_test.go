package a2a_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// a2aPeer is a loopback agent that speaks only A2A 0.3 JSON-RPC, as
// Murmur and most deployed agents do: no agent card, "method not found"
// for any other method (a 1.0 SendMessage included), reply for
// message/send with the request's id. It records what reached it, down to
// TCP connections; bodies and headers are those of message/send.
type a2aPeer struct {
	srv     *httptest.Server
	conns   atomic.Int32
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
	methods []string
	reply   string
}

func newPeer(t *testing.T, tls bool, reply string) *a2aPeer {
	p := &a2aPeer{reply: reply}
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		method, _ := body["method"].(string)
		p.mu.Lock()
		p.methods = append(p.methods, method)
		if method == "message/send" {
			p.bodies = append(p.bodies, body)
			p.headers = append(p.headers, r.Header.Clone())
		}
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		out := map[string]any{"jsonrpc": "2.0", "id": body["id"], "error": map[string]any{"code": -32601, "message": "Method not found"}}
		if method == "message/send" {
			out = nil
			if err := json.Unmarshal([]byte(p.reply), &out); err != nil {
				io.WriteString(w, p.reply)
				return
			}
			out["id"] = body["id"]
		}
		_ = json.NewEncoder(w).Encode(out)
	}))
	p.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			p.conns.Add(1)
		}
	}
	if tls {
		p.srv.StartTLS()
	} else {
		p.srv.Start()
	}
	t.Cleanup(p.srv.Close)
	return p
}

func rules(t *testing.T, entries ...string) policy.Rules {
	t.Helper()
	r, err := policy.ParseNetRules(entries)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const submitted = `{"jsonrpc":"2.0","id":"x","result":{"kind":"task","id":"tsk_1","contextId":"ctx_9","status":{"state":"submitted"}}}`

func TestSendAllowedLoopback(t *testing.T) {
	peer := newPeer(t, false, submitted)
	hostPort := strings.TrimPrefix(peer.srv.URL, "http://")
	var recs []a2a.SendRecord
	c := &a2a.Client{Net: rules(t, hostPort), OnSend: func(r a2a.SendRecord) { recs = append(recs, r) }}
	ctxID := "ctx_9"
	got := probe(t, c)("send", hostPort, []any{"msg-1", wit.Some(ctxID), "hello peer"})
	if want := wit.Ok([]any{"tsk_1", "ctx_9", "submitted"}); !reflect.DeepEqual(got, want) {
		t.Fatalf("send = %#v, want %#v", got, want)
	}
	body := peer.bodies[0]
	if body["jsonrpc"] != "2.0" || body["method"] != "message/send" || !strings.HasPrefix(body["id"].(string), "req_") {
		t.Fatalf("envelope = %v", body)
	}
	msg := body["params"].(map[string]any)["message"].(map[string]any)
	wantMsg := map[string]any{"kind": "message", "messageId": "msg-1", "contextId": "ctx_9", "role": "user",
		"parts": []any{map[string]any{"kind": "text", "text": "hello peer"}}}
	if !reflect.DeepEqual(msg, wantMsg) {
		t.Fatalf("message = %v\nwant %v", msg, wantMsg)
	}
	if ct := peer.headers[0].Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content type %q", ct)
	}
	if want := []a2a.SendRecord{{PeerURL: hostPort, MessageID: "msg-1", TaskID: "tsk_1", ContextID: "ctx_9"}}; !reflect.DeepEqual(recs, want) {
		t.Fatalf("records = %+v", recs)
	}
}

func TestSendDeniedNeverConnects(t *testing.T) {
	peer := newPeer(t, false, submitted)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(peer.srv.URL, "http://"))
	var recs []a2a.SendRecord
	// Same host, other port; the host by another name; https only.
	c := &a2a.Client{Net: rules(t, "127.0.0.1:1", "localhost:"+port, "https://127.0.0.1:"+port),
		OnSend: func(r a2a.SendRecord) { recs = append(recs, r) }}
	got := probe(t, c)("send", peer.srv.URL, []any{"m", wit.None(), "hi"})
	want := wit.Err("network policy: '" + peer.srv.URL + "' not in capabilities.network.allow")
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("send = %#v, want %#v", got, want)
	}
	if n := peer.conns.Load(); n != 0 || len(peer.bodies) != 0 || len(recs) != 0 {
		t.Fatalf("denied send reached the peer: %d connections, %d requests, %d records", n, len(peer.bodies), len(recs))
	}
	// No rules at all denies everything.
	if _, err := (&a2a.Client{}).Send(context.Background(), peer.srv.URL, a2a.Message{}); err == nil || peer.conns.Load() != 0 {
		t.Fatalf("empty allow list: err %v, %d connections", err, peer.conns.Load())
	}
}

func TestSendHTTPS(t *testing.T) {
	peer := newPeer(t, true, submitted)
	hostPort := strings.TrimPrefix(peer.srv.URL, "https://")
	roots := x509.NewCertPool()
	roots.AddCert(peer.srv.Certificate())
	c := &a2a.Client{Net: rules(t, "https://"+hostPort), RootCAs: roots}
	r, err := c.Send(context.Background(), peer.srv.URL, a2a.Message{MessageID: "m", Text: "over tls"})
	if err != nil {
		t.Fatal(err)
	}
	if r != (a2a.TaskResult{TaskID: "tsk_1", ContextID: "ctx_9", State: "submitted"}) || peer.srv.TLS == nil {
		t.Fatalf("result %+v", r)
	}
	msg := peer.bodies[0]["params"].(map[string]any)["message"].(map[string]any)
	if _, ok := msg["contextId"]; ok {
		t.Fatalf("contextId sent although the capsule gave none: %v", msg)
	}
	// Without the test CA the handshake fails: TLS is real.
	c.RootCAs = nil
	if _, err := c.Send(context.Background(), peer.srv.URL, a2a.Message{}); err == nil ||
		!strings.HasPrefix(err.Error(), "failed to connect to "+peer.srv.URL+": its TLS certificate is signed by an authority this system does not trust") {
		t.Fatalf("untrusted certificate: %v", err)
	}
}

func TestSendReplies(t *testing.T) {
	cases := []struct {
		reply, want string
		res         a2a.TaskResult
	}{
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`, `A2A error from %s: {"code":-32601,"message":"Method not found"}`, a2a.TaskResult{}},
		{`{"jsonrpc":"2.0","id":1}`, "no result in A2A response from %s", a2a.TaskResult{}},
		{`{"jsonrpc":"2.0","id":1,"result":{"id":"t","contextId":"c","status":{"state":"sleeping"}}}`, "failed to parse A2A task from %s: unknown task state 'sleeping'", a2a.TaskResult{}},
		{`not json`, "failed to parse A2A task from %s: ", a2a.TaskResult{}},
		{`{"jsonrpc":"2.0","id":1,"result":{"id":"t","contextId":"c","status":{"state":"rejected"}}}`, "", a2a.TaskResult{"t", "c", "rejected"}},
		{`{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"r","contextId":"c","parts":[{"kind":"text","text":"hi"}]}}`, "", a2a.TaskResult{"", "c", "completed"}},
	}
	for _, tc := range cases {
		peer := newPeer(t, false, tc.reply)
		c := &a2a.Client{Net: rules(t, peer.srv.URL)}
		r, err := c.Send(context.Background(), peer.srv.URL, a2a.Message{MessageID: "m"})
		if tc.want == "" {
			if err != nil || r != tc.res {
				t.Errorf("reply %s: %+v, %v", tc.reply, r, err)
			}
			continue
		}
		want := strings.ReplaceAll(tc.want, "%s", peer.srv.URL)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("reply %s: error %v, want %q", tc.reply, err, want)
		}
	}
}

func TestSendBadPeerURL(t *testing.T) {
	c := &a2a.Client{Net: rules(t, "example.com")}
	for peer, want := range map[string]string{
		"http://exa mple.com":     "invalid peer URL 'http://exa mple.com': ",
		"ftp://example.com":       "invalid peer URL 'ftp://example.com': unsupported scheme 'ftp' (expected http or https)",
		"http://:80":              "invalid peer URL 'http://:80'",
		"example.com:99999":       "invalid peer URL 'example.com:99999'",
		"https://www.example.com": "network policy: 'https://www.example.com' not in capabilities.network.allow",
	} {
		if _, err := c.Send(context.Background(), peer, a2a.Message{}); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", peer, err, want)
		}
	}
}

func TestSendDoesNotFollowRedirects(t *testing.T) {
	elsewhere := newPeer(t, false, submitted)
	redirect := httptest.NewServer(http.RedirectHandler(elsewhere.srv.URL, http.StatusTemporaryRedirect))
	t.Cleanup(redirect.Close)
	c := &a2a.Client{Net: rules(t, redirect.URL)}
	if _, err := c.Send(context.Background(), redirect.URL, a2a.Message{}); err == nil {
		t.Fatal("a redirect answered the send")
	}
	if n := elsewhere.conns.Load(); n != 0 {
		t.Fatalf("followed a redirect to a host outside the allow list (%d connections)", n)
	}
}
