package mcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/serve/mcp"
)

// A client without the exact bearer token reaches no tool: the SDK's own
// client cannot even initialise, and a raw tools/call is answered 401
// before the protocol layer, with nothing dispatched.
func TestHTTPRefusesWithoutItsToken(t *testing.T) {
	d := newRecorder()
	url := serveHTTP(t, d)
	tests := []struct {
		name, auth string
		ok         bool
	}{
		{"no header", "", false},
		{"wrong token", "Bearer " + strings.Repeat("0", len(testToken)), false},
		{"token without scheme", testToken, false},
		{"another scheme", "Basic " + testToken, false},
		{"token with a suffix", "Bearer " + testToken + "0", false},
		{"token prefix", "Bearer " + testToken[:16], false},
		{"empty token", "Bearer ", false},
		{"the token", "Bearer " + testToken, true},
		{"the token, scheme in lower case", "bearer " + testToken, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := d.count()
			ctx := context.Background()
			cs, err := connect(ctx, url, tt.auth)
			if err == nil {
				_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"a": "x"}})
				cs.Close()
			}
			if tt.ok != (err == nil) {
				t.Fatalf("SDK client with %q: err = %v", tt.auth, err)
			}
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(
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
			if !tt.ok && (resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer ")) {
				t.Fatalf("raw tools/call with %q: status %d (WWW-Authenticate %q), want 401 with a Bearer challenge", tt.auth, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
			if want := before + map[bool]int{true: 1}[tt.ok]; d.count() != want {
				t.Fatalf("dispatched %d calls, want %d", d.count()-before, want-before)
			}
		})
	}
}

// A client without the token is answered 401 before a byte of its body
// is read: one that announces a large body and sends none gets its 401
// at once, not when the body's deadline runs out.
func TestHTTPReadsNoBodyWithoutTheToken(t *testing.T) {
	url := serveHTTP(t, newRecorder())
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	for _, auth := range []string{"", "Authorization: Bearer " + strings.Repeat("x", len(testToken)) + "\r\n"} {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%sContent-Length: 1000000\r\n\r\n{", host, auth)
		// The deadline only turns a hang into a failure: the answer is
		// expected at once, the body's own deadline is 30 s.
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer to a request with %q and an unsent body: %v", auth, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("request with %q and an unsent body: status %d, want 401", auth, resp.StatusCode)
		}
	}
}

// No configuration serves the tools over HTTP without a token.
func TestHTTPNeverServesWithoutAToken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = mcp.ServeHTTP(context.Background(), mcp.Options{Name: "test", Dispatcher: newRecorder()}, ln, mcp.HTTPOptions{Path: "/mcp"})
	if err == nil || !strings.Contains(err.Error(), "without a bearer token") {
		t.Fatalf("ServeHTTP without a token: %v", err)
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("the listener is still open after the refusal: %v", err)
	}
}

// The server takes the A2A server's bounds (httpbound.Defaults): a body
// over 1 MiB from a client with the token is refused, not read.
func TestHTTPBoundsTheBody(t *testing.T) {
	d := newRecorder()
	url := serveHTTP(t, d)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":"` + strings.Repeat("x", 2<<20) + `"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || d.count() != 0 {
		t.Fatalf("a 2 MiB body: status %d, %d calls; want 413 and none", resp.StatusCode, d.count())
	}
}
