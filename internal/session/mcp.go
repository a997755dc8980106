package session

import (
	"context"
	"io"
	"net"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/serve/mcp"
	"github.com/mur-go/mur/internal/stage"
)

// MCPPath is the endpoint's path on the HTTP server of `mur mcp serve`.
const MCPPath = "/mcp"

// mcpSessionTimeout ends an HTTP client's MCP session after an hour
// without a request: clients that leave without ending theirs do not
// pile up, and one that comes back starts a new session.
const mcpSessionTimeout = time.Hour

// MCPOptions are how `mur mcp serve` offers a capsule's tools.
type MCPOptions struct {
	// HTTP is the address streamable HTTP is served on, host:port (an
	// empty host is 127.0.0.1, port 0 picks one); "" serves over stdio.
	HTTP string
	// In and Out are the stdio transport's streams; nothing else may
	// write to Out (the capsule's own output goes to Options.Stdout).
	In  io.Reader
	Out io.Writer
	// Token is the bearer token HTTP requests must carry; "" makes one,
	// written to a 0600 file <session id>.token in TokenDir (a directory
	// of the user's own) and removed when the server stops.
	Token, TokenDir string
	// OnServing, if set, is called once the server takes calls: with the
	// HTTP endpoint's URL ("" over stdio) and the generated token's file
	// ("" when none was generated).
	OnServing func(s *stage.Staged, url, tokenFile string)
}

// ServeMCP serves the capsule's tools over MCP (ServeTools): to the
// client on m.In and m.Out, or over streamable HTTP on m.HTTP, whose
// port is bound before anything is staged, behind the bearer token and
// the A2A server's bounds. Its skills are prompts as well as tools.
func ServeMCP(ctx context.Context, opts Options, m MCPOptions) (Result, error) {
	if m.HTTP == "" {
		return ServeTools(ctx, opts, "", func(ctx context.Context, s Serving) error {
			if m.OnServing != nil {
				m.OnServing(s.Staged, "", "")
			}
			return mcp.ServeStdio(ctx, mcpOptions(s), m.In, m.Out)
		})
	}
	token := m.Token
	if token == "" {
		token = mcp.NewToken()
	} else if err := mcp.CheckToken(token); err != nil {
		return Result{Status: StatusFailed, Step: StepPrepare}, diag.Mark(diag.Wrap(launch.CodeIO, err, "the MCP server's token: %v", err), ErrOption)
	}
	ln, err := listenMCP(ctx, m.HTTP)
	if err != nil {
		return Result{Status: StatusFailed, Step: StepPrepare}, err
	}
	defer ln.Close()
	url := "http://" + ln.Addr().String() + MCPPath
	return ServeTools(ctx, opts, token, func(ctx context.Context, s Serving) error {
		var file string
		if m.Token == "" {
			path, remove, err := mcp.WriteTokenFile(m.TokenDir, s.Staged.ID+".token", token)
			if err != nil {
				return diag.Wrap(launch.CodeIO, err, "%v", err).
					WithHint("set " + mcp.TokenEnv + " or pass --token-file to give the server a token of your own")
			}
			defer remove()
			file = path
		}
		if m.OnServing != nil {
			m.OnServing(s.Staged, url, file)
		}
		return mcp.ServeHTTP(ctx, mcpOptions(s), ln, mcp.HTTPOptions{Path: MCPPath, Token: token,
			Realm: "mur-mcp", SessionTimeout: mcpSessionTimeout})
	})
}

// listenMCP binds the HTTP server's address, 127.0.0.1 when it names no
// host: reaching beyond this machine is asked for by name. The server
// is never served without a token, so a wide bind has one, as the A2A
// server requires of it.
func listenMCP(ctx context.Context, addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, diag.Mark(diag.New(launch.CodeIO, "--http %q is not HOST:PORT: %v", addr, err).
			WithHint("e.g. --http 127.0.0.1:0 (port 0 picks a free one)"), ErrOption)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, diag.Wrap(launch.CodeIO, err, "could not bind the MCP server on %s: %v", net.JoinHostPort(host, port), err).
			WithHint("choose another port, or 0 to have one picked")
	}
	return ln, nil
}

// mcpOptions are the MCP server of a session's tools: the capsule's name
// and version, its inventory, each call through the loop's dispatch.
func mcpOptions(s Serving) mcp.Options {
	c := s.Staged.Capsule
	return mcp.Options{Name: c.Name, Version: c.Version, Tools: s.Tools.Tools(), Dispatcher: s.Tools, Log: s.Log}
}
