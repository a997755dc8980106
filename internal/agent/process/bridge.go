package process

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/mur-go/mur/internal/base/httpbound"
)

// BridgeServer is the MCP server name the CLI is configured with; Claude
// Code names its tools mcp__<server>__<tool>.
const BridgeServer = "claude_bridge"

// claudeToolPrefix is what Claude Code puts before a bridge tool's name.
const claudeToolPrefix = "mcp__" + BridgeServer + "__"

// Bridge is the loopback MCP server the CLI reaches the capsule's tools
// through: 127.0.0.1:<ephemeral>/bridge, every request carrying the
// bearer token.
type Bridge struct {
	// ID and Token are fresh UUIDv4s in simple hex.
	ID, Token string
	// URL is the endpoint to configure the CLI with.
	URL string

	srv  *http.Server
	done chan struct{}
}

// StartBridge serves specs on a fresh loopback port until Close; calls
// are dispatched one at a time, as the loop dispatches (session.md §2.4).
// A call runs under ctx as well as its request, so cancelling the run
// stops a tool the CLI is waiting on.
func StartBridge(ctx context.Context, specs []ToolSpec, d Dispatcher, log *slog.Logger) (*Bridge, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bridge{ID: simpleHex(), Token: simpleHex(), done: make(chan struct{})}
	server := mcp.NewServer(&mcp.Implementation{Name: "mur-bridge", Version: "0.2.0"}, &mcp.ServerOptions{Logger: log})
	var mu sync.Mutex
	for _, s := range specs {
		server.AddTool(&mcp.Tool{Name: s.Name, Description: s.Description, InputSchema: objectSchema(s.InputSchema)},
			func(reqCtx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				input, err := canonicalInput(req.Params.Arguments)
				if err != nil {
					return errorResult(fmt.Sprintf("tool '%s': arguments are not a JSON object: %v", s.Name, err)), nil
				}
				mu.Lock()
				defer mu.Unlock()
				callCtx, cancel := context.WithCancel(ctx)
				defer cancel()
				defer context.AfterFunc(reqCtx, cancel)()
				text, isError := d.Call(callCtx, s.Name, input)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}, nil
			})
	}
	// The bridge is on loopback, where every local user can reach it: it
	// takes the A2A server's bounds on connections, headers and bodies,
	// and reads no body byte before the token is checked.
	bounds := httpbound.New(httpbound.Defaults(), log)
	mux := http.NewServeMux()
	mux.Handle("/bridge", b.authorize(bounds.Body(mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Logger: log}))))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on loopback for the tool bridge: %w", err)
	}
	b.URL = "http://" + ln.Addr().String() + "/bridge"
	b.srv = bounds.Server(mux, nil)
	b.srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelDebug)
	go func() {
		defer close(b.done)
		if err := b.srv.Serve(bounds.Listener(ln)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("tool bridge stopped", "bridge", b.ID, "err", err.Error())
		}
	}()
	log.Debug("tool bridge listening", "bridge", b.ID, "url", b.URL, "tools", len(specs))
	return b, nil
}

// Close stops the bridge: open connections are closed and calls in
// flight see their context end.
func (b *Bridge) Close() error {
	err := b.srv.Close()
	<-b.done
	return err
}

// authorize refuses any request without the bearer token, compared in
// constant time so its bytes cannot be found by timing.
func (b *Bridge) authorize(next http.Handler) http.Handler {
	want := []byte("Bearer " + b.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mur-bridge"`)
			http.Error(w, "unauthorized: the tool bridge needs its bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func simpleHex() string { return strings.ReplaceAll(uuid.NewString(), "-", "") }

// objectSchema is schema when it is a JSON object of type object, which
// MCP requires of an input schema, else the schema any object satisfies.
func objectSchema(schema json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(schema, &m) == nil && m["type"] == "object" {
		return schema
	}
	return json.RawMessage(`{"type":"object"}`)
}

// canonicalInput is a call's arguments as dispatch passes them: a JSON
// object ({} when absent), compact, keys sorted, numbers kept verbatim.
func canonicalInput(args json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		return "{}", nil
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return "", err
	}
	return compactJSON(m)
}

// compactJSON is v as compact JSON without HTML escaping, the form a
// tool's input takes in dispatch and in the trace.
func compactJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}
