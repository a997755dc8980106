package process

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"

	"github.com/google/uuid"

	"github.com/mur-go/mur/internal/serve/mcp"
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

	stop context.CancelFunc
	done chan struct{}
}

// StartBridge serves specs on a fresh loopback port until Close or the
// end of ctx. It is internal/serve/mcp's server, the one `mur mcp serve`
// offers over HTTP: calls dispatched one at a time, as the loop
// dispatches (session.md §2.4), each under ctx as well as its request,
// so cancelling the run stops a tool the CLI is waiting on; the bearer
// token checked before any body byte is read; the A2A server's bounds.
func StartBridge(ctx context.Context, specs []ToolSpec, d Dispatcher, log *slog.Logger) (*Bridge, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bridge{ID: simpleHex(), Token: simpleHex(), done: make(chan struct{})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on loopback for the tool bridge: %w", err)
	}
	b.URL = "http://" + ln.Addr().String() + "/bridge"
	var sctx context.Context
	sctx, b.stop = context.WithCancel(ctx)
	o := mcp.Options{Name: "mur-bridge", Version: "0.2.0", Tools: specs, Dispatcher: d, Log: log}
	go func() {
		defer close(b.done)
		if err := mcp.ServeHTTP(sctx, o, ln, mcp.HTTPOptions{Path: "/bridge", Token: b.Token, Realm: "mur-bridge"}); err != nil {
			log.Warn("tool bridge stopped", "bridge", b.ID, "err", err.Error())
		}
	}()
	log.Debug("tool bridge listening", "bridge", b.ID, "url", b.URL, "tools", len(specs))
	return b, nil
}

// Close stops the bridge: open connections are closed and calls in
// flight see their context end.
func (b *Bridge) Close() error {
	b.stop()
	<-b.done
	return nil
}

func simpleHex() string { return strings.ReplaceAll(uuid.NewString(), "-", "") }
