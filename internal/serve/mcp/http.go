package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/base/httpbound"
)

// HTTPOptions are a server's HTTP side.
type HTTPOptions struct {
	// Path is the endpoint's path, e.g. /mcp.
	Path string
	// Token is the bearer token every request must carry. There is no
	// serving without one.
	Token string
	// Realm names the server in a 401's WWW-Authenticate.
	Realm string
	// Limits are the connection, time and body bounds; zero fields take
	// httpbound.Defaults, the A2A server's.
	Limits httpbound.Limits
	// SessionTimeout ends an MCP session that sent no request for that
	// long (0: never), so clients that leave without closing theirs do
	// not pile up; a client that comes back is answered 404 and starts a
	// new one, as the protocol has it.
	SessionTimeout time.Duration
}

// ServeHTTP serves o over streamable HTTP on ln, which it closes, until
// ctx ends; then every connection is closed and calls in flight see
// their context end. It returns nil when ctx ended it.
func ServeHTTP(ctx context.Context, o Options, ln net.Listener, h HTTPOptions) error {
	if h.Token == "" {
		ln.Close()
		return errors.New("the MCP server is never served over HTTP without a bearer token")
	}
	s, err := newServer(ctx, o)
	if err != nil {
		ln.Close()
		return err
	}
	log := o.log()
	bounds := httpbound.New(h.Limits, log)
	mux := http.NewServeMux()
	mux.Handle(h.Path, bounds.Body(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Logger: log, SessionTimeout: h.SessionTimeout})))
	// Every path needs the token, and it is checked before the body:
	// Body reads nothing of a request the token refused.
	srv := bounds.Server(authorize(h.Token, h.Realm, mux), nil)
	srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelDebug)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(bounds.Listener(ln)) }()
	select {
	case <-ctx.Done():
		srv.Close()
		<-served
		return nil
	case err := <-served:
		return fmt.Errorf("serving MCP over HTTP: %w", err)
	}
}

// authorize answers 401 to a request without the bearer token. The
// digests are compared, in constant time, so neither the token's bytes
// nor its length can be learnt by timing the answer.
func authorize(token, realm string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 || !strings.EqualFold(scheme, "Bearer") {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer realm=%q", realm))
			http.Error(w, "unauthorized: this MCP server needs its bearer token (Authorization: Bearer <token>)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
