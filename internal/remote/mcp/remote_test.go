package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// allow is the network rules of a capsule allowing entries.
func allow(t testing.TB, entries ...string) policy.Rules {
	t.Helper()
	r, err := policy.NetworkRules(&manifest.Capabilities{Network: &manifest.NetworkCaps{Allow: entries}}, "capabilities")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// remoteServer is a streamable HTTP MCP server on loopback with the tools
// echo and grow (which adds grown and answers once the client listed
// again), recording the Authorization header of every request.
type remoteServer struct {
	*httptest.Server
	mu    sync.Mutex
	auths []string
}

func newRemoteServer(t testing.TB) *remoteServer {
	t.Helper()
	rs := &remoteServer{}
	srv := sdk.NewServer(&sdk.Implementation{Name: "remote-test", Version: "1"}, nil)
	lists := make(chan struct{}, 16)
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" {
				select {
				case lists <- struct{}{}:
				default:
				}
			}
			return next(ctx, method, req)
		}
	})
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	schema := map[string]any{"type": "object"}
	srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: schema}, func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in struct{ Message string }
		if err := json.Unmarshal(r.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return text("Echo: " + in.Message), nil
	})
	srv.AddTool(&sdk.Tool{Name: "grow", InputSchema: schema}, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		for len(lists) > 0 {
			<-lists
		}
		srv.AddTool(&sdk.Tool{Name: "grown", InputSchema: schema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("grown"), nil
		})
		select {
		case <-lists:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return text("grew"), nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		rs.auths = append(rs.auths, r.Header.Get("Authorization"))
		rs.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(rs.Close)
	return rs
}

func (rs *remoteServer) authorizations() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return slices.Clone(rs.auths)
}

// A remote server is reached under the network rules with its headers on
// every request; its tools are called like a local server's, and a tool
// it adds is listed once the client read the changed list.
func TestRemoteServer(t *testing.T) {
	rs := newRemoteServer(t)
	u, _ := url.Parse(rs.URL)
	s := New(Config{Servers: []Server{{Name: "r", Remote: &Remote{URL: rs.URL + "/mcp",
		Headers: []Header{{"Authorization", "Bearer tok-remote"}}, Net: allow(t, "http://"+u.Host)}}}})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if r, err := call(t, s, "mcp__r__echo", `{"message":"hi"}`); err != nil || *r.Data != "Echo: hi" {
		t.Fatalf("echo: %v %v", r, err)
	}
	if r, err := call(t, s, "mcp__r__grow", `{}`); err != nil || *r.Data != "grew" {
		t.Fatalf("grow: %v %v", r, err)
	}
	if listed, _ := s.Listed(context.Background()); !slices.Contains(names(listed), "mcp__r__grown") {
		t.Errorf("after grow: %v", names(listed))
	}
	auths := rs.authorizations()
	if len(auths) < 3 || slices.ContainsFunc(auths, func(a string) bool { return a != "Bearer tok-remote" }) {
		t.Errorf("Authorization headers seen: %q", auths)
	}
}

// A remote server the network rules do not admit is never contacted: the
// start fails naming the server and the rule.
func TestRemoteServerOutsideNetworkAllow(t *testing.T) {
	rs := newRemoteServer(t)
	for _, net := range []policy.Rules{nil, allow(t, "http://127.0.0.1:1")} {
		s := New(Config{Servers: []Server{{Name: "r", Remote: &Remote{URL: rs.URL + "/mcp", Net: net}}}})
		err := s.Start(context.Background())
		var d *diag.Error
		var pe *PolicyError
		if !errors.As(err, &d) || !strings.HasPrefix(d.Msg, "mcp server 'r' did not start") || !errors.As(err, &pe) ||
			!strings.Contains(err.Error(), "is not in capabilities.network.allow") {
			t.Errorf("err = %v", err)
		}
	}
	if got := rs.authorizations(); len(got) != 0 {
		t.Errorf("the server was contacted %d times", len(got))
	}
}

// A hostile server redirecting the client elsewhere learns nothing: the
// hop to another origin is refused before it is made, so its header
// values never leave for it, even where the rules allow that origin.
func TestRemoteServerRedirectElsewhereRefused(t *testing.T) {
	var elsewhere []string
	var mu sync.Mutex
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		elsewhere = append(elsewhere, r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	ru, _ := url.Parse(redirect.URL)
	ou, _ := url.Parse(other.URL)
	s := New(Config{Servers: []Server{{Name: "r", Remote: &Remote{URL: redirect.URL + "/mcp",
		Headers: []Header{{"Authorization", "Bearer tok-remote"}}, Net: allow(t, "http://"+ru.Host, "http://"+ou.Host)}}}})
	err := s.Start(context.Background())
	var pe *PolicyError
	if !errors.As(err, &pe) || !strings.Contains(pe.Error(), "is not the MCP server's origin") {
		t.Errorf("err = %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(elsewhere) != 0 {
		t.Errorf("the other origin got %d requests: %q", len(elsewhere), elsewhere)
	}
}

// A response that is not an event stream is bounded: a server cannot
// make the host read without end.
func TestRemoteServerResponseBounded(t *testing.T) {
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for range maxResponse>>20 + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer huge.Close()
	u, _ := url.Parse(huge.URL)
	s := New(Config{Servers: []Server{{Name: "r", Remote: &Remote{URL: huge.URL + "/mcp", Net: allow(t, "http://"+u.Host)}}}})
	if err := s.Start(context.Background()); !errors.Is(err, errBodyTooLarge) && (err == nil || !strings.Contains(err.Error(), errBodyTooLarge.Error())) {
		t.Errorf("err = %v", err)
	}
}
