package mcp_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/serve/mcp"
)

// recorder is a Dispatcher that answers "<name>: <input>" and keeps
// every call; a call to "block" waits for release (or its context).
type recorder struct {
	mu      sync.Mutex
	calls   []string
	running int
	most    int
	release chan struct{}
	freed   sync.Once
	started chan struct{}
}

// free lets every blocked call end.
func (r *recorder) free() { r.freed.Do(func() { close(r.release) }) }

func newRecorder() *recorder {
	return &recorder{release: make(chan struct{}), started: make(chan struct{}, 16)}
}

func (r *recorder) Call(ctx context.Context, name, input string) (string, bool) {
	r.mu.Lock()
	r.calls = append(r.calls, name+" "+input)
	r.running++
	r.most = max(r.most, r.running)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.running--
		r.mu.Unlock()
	}()
	r.started <- struct{}{}
	if name == "block" {
		select {
		case <-r.release:
		case <-ctx.Done():
			return "cancelled", true
		}
	}
	return name + ": " + input, name == "fail"
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

var testTools = []mcp.Tool{
	{Name: "echo", Description: "echoes", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)},
	{Name: "block", Description: "waits"},
	{Name: "fail", Description: "fails"},
	{Name: "guide", Description: "how to do it", Skill: true},
}

const testToken = "0123456789abcdef0123456789abcdef"

// serveHTTP serves testTools to d on a loopback port until the test
// ends and returns the endpoint's URL.
func serveHTTP(t *testing.T, d mcp.Dispatcher) string {
	t.Helper()
	return serveHTTPLogged(t, d, nil)
}

// serveHTTPLogged is serveHTTP with the server's diagnostics to log.
func serveHTTPLogged(t *testing.T, d mcp.Dispatcher, log *slog.Logger) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- mcp.ServeHTTP(ctx, mcp.Options{Name: "test", Version: "1.0.0", Tools: testTools, Dispatcher: d, Log: log}, ln,
			mcp.HTTPOptions{Path: "/mcp", Token: testToken, Realm: "test"})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + "/mcp"
}

// connect is an SDK client session on url sending auth ("" for none).
func connect(ctx context.Context, url, auth string) (*sdk.ClientSession, error) {
	hc := &http.Client{Transport: header{auth}}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
	return client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
}

type header struct{ auth string }

func (h header) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if h.auth != "" {
		r.Header.Set("Authorization", h.auth)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func text(t *testing.T, r *sdk.CallToolResult) string {
	t.Helper()
	if len(r.Content) != 1 {
		t.Fatalf("result has %d contents, want 1", len(r.Content))
	}
	tc, ok := r.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("result content is %T", r.Content[0])
	}
	return tc.Text
}

// waits hands over the caller's diagnostics of calls that wait or give
// up: "waits <tool>", "not run <tool>".
type waits chan string

func (w waits) Enabled(context.Context, slog.Level) bool { return true }
func (w waits) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w waits) WithGroup(string) slog.Handler            { return w }

func (w waits) Handle(_ context.Context, r slog.Record) error {
	what := map[string]string{"a tool call waits for the one running": "waits",
		"a tool call was not run: it ended while it waited": "not run"}[r.Message]
	if what == "" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "tool" {
			w <- what + " " + a.Value.String()
		}
		return true
	})
	return nil
}
