package a2a_test

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/remote/a2a"
	served "github.com/mur-go/mur/internal/serve/a2a"
)

// ours serves mur-go's own A2A server (queue+sleep) with a loop that
// completes every task with "done: <text>", handing each task it ran to
// the returned channel. It returns the capsule's base URL.
func ours(t *testing.T) (string, <-chan agent.Task) {
	t.Helper()
	dir := t.TempDir()
	ran := make(chan agent.Task, 16)
	ctx, stop := context.WithCancel(context.Background())
	urls, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- served.Serve(ctx, served.ServerOptions{
			SessionID: "ses_client",
			Workdir:   dir,
			Lifecycle: manifest.Lifecycle{TaskAcceptance: served.AcceptQueue, AfterTask: "sleep", QueueDepth: 8},
			Card:      served.CardInfo{Name: "client-test", Version: "0.1.0"},
			OnListen:  func(u string) { urls <- u },
			Run: func(ctx context.Context, src agent.TaskSource) error {
				for {
					tk, ok, err := src.Next(ctx)
					if err != nil || !ok {
						return err
					}
					reply := "done"
					tk.Events.Status(agent.StatusEvent{State: "completed", Message: "session ended", Response: &reply, Final: true})
					src.Done(ctx, tk, agent.TaskResult{ExitStatus: "ok", Text: reply})
					ran <- tk
				}
			},
		})
		close(urls)
	}()
	u, ok := <-urls
	if !ok {
		t.Fatalf("the server did not start: %v", <-done)
	}
	t.Cleanup(func() { stop(); <-done })
	return "http://" + u, ran
}

// seen is one request a recording front saw.
type seen struct {
	path, version, method, traceparent string
}

// front is a reverse proxy before an A2A server that records every
// request and serves the upstream card with its URLs pointing at itself,
// optionally keeping only the interfaces keep admits.
type front struct {
	srv *httptest.Server
	mu  sync.Mutex
	log []seen
}

func newFront(t *testing.T, upstream string, keep func(*sdk.AgentInterface) bool) *front {
	t.Helper()
	target, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	f := &front{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var env struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &env)
		f.mu.Lock()
		f.log = append(f.log, seen{r.URL.Path, r.Header.Get("A2A-Version"), env.Method, r.Header.Get("traceparent")})
		f.mu.Unlock()
		if r.URL.Path == served.CardPath {
			f.card(t, w, upstream, keep)
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		r.ContentLength = int64(len(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *front) card(t *testing.T, w http.ResponseWriter, upstream string, keep func(*sdk.AgentInterface) bool) {
	resp, err := http.Get(upstream + served.CardPath)
	if err != nil {
		t.Error(err)
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	var card sdk.AgentCard
	if err := json.NewDecoder(resp.Body).Decode(&card); err != nil {
		t.Error(err)
	}
	var ifaces []*sdk.AgentInterface
	for _, i := range card.SupportedInterfaces {
		if keep == nil || keep(i) {
			i.URL = f.srv.URL
			ifaces = append(ifaces, i)
		}
	}
	card.SupportedInterfaces = ifaces
	var out []byte
	if slicesHasV03(ifaces) {
		p, _ := a2av0.NewStaticAgentCardProducer(&card).(a2asrv.AgentCardJSONProducer)
		out, err = p.CardJSON(context.Background())
	} else {
		out, err = json.Marshal(&card)
	}
	if err != nil {
		t.Error(err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

func slicesHasV03(ifaces []*sdk.AgentInterface) bool {
	for _, i := range ifaces {
		if i.ProtocolVersion == a2av0.Version {
			return true
		}
	}
	return false
}

// sends is what reached the front as a message send, in order.
func (f *front) sends() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []seen
	for _, s := range f.log {
		if s.path != served.CardPath {
			out = append(out, s)
		}
	}
	return out
}

func only(binding sdk.TransportProtocol, version sdk.ProtocolVersion) func(*sdk.AgentInterface) bool {
	return func(i *sdk.AgentInterface) bool { return i.ProtocolBinding == binding && i.ProtocolVersion == version }
}

// A capsule's message/send reaches mur-go's own server over whatever its
// card offers, newest first, and the task carries the capsule's trace.
func TestSendToOurServer(t *testing.T) {
	tests := []struct {
		name string
		keep func(*sdk.AgentInterface) bool
		want seen // of the one send that reached the server
	}{
		{"1.0 JSON-RPC first", nil, seen{path: "/", version: "1.0", method: "SendMessage"}},
		{"1.0 HTTP+JSON", only(sdk.TransportProtocolHTTPJSON, sdk.Version), seen{path: "/message:send", version: "1.0"}},
		{"0.3 JSON-RPC", only(sdk.TransportProtocolJSONRPC, a2av0.Version), seen{path: "/", method: "message/send"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upstream, ran := ours(t)
			f := newFront(t, upstream, tt.keep)
			trace := a2a.NewTrace()
			var recs []a2a.SendRecord
			c := &a2a.Client{Net: rules(t, f.srv.URL), Trace: trace, OnSend: func(r a2a.SendRecord) { recs = append(recs, r) }}
			ctxID := "ctx_caller"
			got := probe(t, c)("send", f.srv.URL, []any{"msg-7", someString(ctxID), "hello"})
			res := okResult(t, got)
			if !strings.HasPrefix(res[0].(string), "tsk_") || res[1] != ctxID || (res[2] != "submitted" && res[2] != "working" && res[2] != "completed") {
				t.Fatalf("task-result %v", res)
			}
			task := <-ran
			if task.MessageID != "msg-7" || task.ContextID != ctxID {
				t.Fatalf("the server got message %q in context %q", task.MessageID, task.ContextID)
			}
			sends := f.sends()
			if len(sends) != 1 {
				t.Fatalf("requests other than the card: %+v, want one", sends)
			}
			s := sends[0]
			tp := s.traceparent
			s.traceparent = ""
			if s != tt.want {
				t.Fatalf("the send went as %+v, want %+v", s, tt.want)
			}
			if tp != trace.String() || task.Traceparent != tp || len(recs) != 1 || recs[0].Traceparent != tp {
				t.Fatalf("traceparent %q; the task has %q; records %+v; want %q", tp, task.Traceparent, recs, trace.String())
			}
		})
	}
}

// echoExecutor is the SDK's own way of answering: every task completed
// with an echo.
type echoExecutor struct{}

func (echoExecutor) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[sdk.Event, error] {
	return func(yield func(sdk.Event, error) bool) {
		text := ""
		for _, p := range ec.Message.Parts {
			text += p.Text()
		}
		if !yield(sdk.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		yield(sdk.NewStatusUpdateEvent(ec, sdk.TaskStateCompleted, sdk.NewMessageForTask(sdk.MessageRoleAgent, ec, sdk.NewTextPart("echo: "+text))), nil)
	}
}

func (echoExecutor) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[sdk.Event, error] {
	return func(yield func(sdk.Event, error) bool) {
		yield(sdk.NewStatusUpdateEvent(ec, sdk.TaskStateCanceled, nil), nil)
	}
}

// sdkPeer is an agent built only from the SDK: version "1.0" serves 1.0
// JSON-RPC and a 1.0 card, "0.3" 0.3 JSON-RPC and a 0.3 card. It records
// the JSON-RPC methods it was sent.
func sdkPeer(t *testing.T, version sdk.ProtocolVersion) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var methods []string
	h := a2asrv.NewHandler(echoExecutor{})
	var rpc http.Handler
	if version == sdk.Version {
		rpc = a2asrv.NewJSONRPCHandler(h)
	} else {
		rpc = a2av0.NewJSONRPCHandler(h)
	}
	mux := http.NewServeMux()
	srv := httptest.NewUnstartedServer(mux)
	card := &sdk.AgentCard{Name: "sdk-peer", Version: "1", Description: "echo",
		SupportedInterfaces: []*sdk.AgentInterface{{URL: "http://" + srv.Listener.Addr().String(), ProtocolBinding: sdk.TransportProtocolJSONRPC, ProtocolVersion: version}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Capabilities: sdk.AgentCapabilities{Streaming: true}, Skills: []sdk.AgentSkill{{ID: "echo", Name: "echo", Description: "echo", Tags: []string{"echo"}}}}
	if version == sdk.Version {
		mux.Handle(served.CardPath, a2asrv.NewStaticAgentCardHandler(card))
	} else {
		mux.Handle(served.CardPath, a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(card)))
	}
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var env struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &env)
		mu.Lock()
		methods = append(methods, env.Method)
		mu.Unlock()
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		rpc.ServeHTTP(w, r)
	}))
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), methods...) }
}

// The SDK's servers alone: a 1.0-only one is spoken to in 1.0, a 0.3-only
// one (its card says so) in 0.3 without a 1.0 attempt; a 0.3 peer without
// a card gets the 1.0 attempt, answers "method not found", then 0.3.
func TestSendToSDKPeers(t *testing.T) {
	v1, v1methods := sdkPeer(t, sdk.Version)
	v03, v03methods := sdkPeer(t, a2av0.Version)
	bare := newPeer(t, false, submitted)
	tests := []struct {
		name    string
		url     string
		methods func() []string
		want    []string
		state   string
	}{
		{"1.0 only", v1.URL, v1methods, []string{"SendMessage"}, "submitted"},
		{"0.3 card", v03.URL, v03methods, []string{"message/send"}, "submitted"},
		{"0.3 without a card", bare.srv.URL, func() []string { return bare.methods }, []string{"SendMessage", "message/send"}, "submitted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &a2a.Client{Net: rules(t, tt.url)}
			got := probe(t, c)("send", tt.url, []any{"m-1", noString(), "hi"})
			res := okResult(t, got)
			if res[0] == "" || (res[2] != tt.state && res[2] != "completed") {
				t.Fatalf("task-result %v", res)
			}
			if m := tt.methods(); strings.Join(m, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("methods sent %v, want %v", m, tt.want)
			}
		})
	}
}

// mur send (OneShot) streams from each kind of peer and says which
// version answered.
func TestOneShotVersions(t *testing.T) {
	v1, _ := sdkPeer(t, sdk.Version)
	v03, _ := sdkPeer(t, a2av0.Version)
	upstream, _ := ours(t)
	for _, tt := range []struct{ name, url, version, text string }{
		{"our server", upstream, "1.0", "done"},
		{"SDK 1.0", v1.URL, "1.0", "echo: hi"},
		{"SDK 0.3", v03.URL, "0.3", "echo: hi"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := a2a.OneShot{}.Send(t.Context(), tt.url, "hi")
			if err != nil || r.Version != tt.version || r.State != "completed" || r.Text != tt.text {
				t.Fatalf("reply %+v, %v; want %s completed %q", r, err, tt.version, tt.text)
			}
		})
	}
}

func someString(s string) any { return wit.Some(s) }
func noString() any           { return wit.None() }

// okResult is the task-result fields of an ok send.
func okResult(t *testing.T, got any) []any {
	t.Helper()
	r, ok := got.(wit.ResultValue)
	if !ok || r.Err {
		t.Fatalf("send = %#v, want ok", got)
	}
	return r.Value.([]any)
}
