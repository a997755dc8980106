package process_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/agent/process"
)

// A client on loopback without the bridge's exact bearer token reaches
// no tool: the MCP SDK's own client cannot even initialise, and a raw
// tools/call is refused before the protocol layer. With the token the
// same client calls the tool.
func TestBridgeRefusesWithoutItsToken(t *testing.T) {
	d := &echo{}
	b, err := process.StartBridge(context.Background(), []process.ToolSpec{echoSpec}, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	wrong := strings.Repeat("0", len(b.Token))
	tests := []struct {
		name, auth string
		ok         bool
	}{
		{"no header", "", false},
		{"wrong token", "Bearer " + wrong, false},
		{"token without scheme", b.Token, false},
		{"token with a suffix", "Bearer " + b.Token + "0", false},
		{"token prefix", "Bearer " + b.Token[:16], false},
		{"the token", "Bearer " + b.Token, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(d.calls)
			err := callEcho(b.URL, tt.auth)
			if tt.ok != (err == nil) {
				t.Fatalf("call with %q: err = %v", tt.auth, err)
			}
			req, _ := http.NewRequest(http.MethodPost, b.URL, strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":"x"}}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if !tt.ok && resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("raw tools/call with %q: status %d, want 401", tt.auth, resp.StatusCode)
			}
			if want := before + map[bool]int{true: 1}[tt.ok]; len(d.calls) != want {
				t.Fatalf("dispatched %d calls, want %d", len(d.calls)-before, want-before)
			}
		})
	}
}

func callEcho(url, auth string) error {
	ctx := context.Background()
	hc := &http.Client{Transport: header{auth}}
	client := mcp.NewClient(&mcp.Implementation{Name: "attacker", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"a": "x"}})
	return err
}

type header struct{ auth string }

func (h header) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if h.auth != "" {
		r.Header.Set("Authorization", h.auth)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// With the token, a name the bridge does not advertise is refused by the
// protocol layer and never reaches dispatch.
func TestBridgeRefusesAnUnadvertisedTool(t *testing.T) {
	d := &echo{}
	b, err := process.StartBridge(context.Background(), []process.ToolSpec{echoSpec}, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "attacker", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: b.URL,
		HTTPClient: &http.Client{Transport: header{"Bearer " + b.Token}}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, name := range []string{"shell", "../echo", "mcp__claude_bridge__echo", ""} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		if err == nil && !res.IsError {
			t.Fatalf("call of %q succeeded", name)
		}
	}
	if len(d.calls) != 0 {
		t.Fatalf("dispatched %q", d.calls)
	}
}
