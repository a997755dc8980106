package a2a

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/mur-go/mur/internal/base/httpbound"
)

// FrontOptions describe the protocol side of an A2A server whose tasks
// are kept and run elsewhere: the gateway's, over JetStream.
type FrontOptions struct {
	// Handler keeps and dispatches the tasks.
	Handler a2asrv.RequestHandler
	// Card describes the capsule; Base is the URL the card's interfaces
	// name (http://HOST:PORT/NAME on a gateway).
	Card CardInfo
	Base string
	// Token is the bearer token every route but the public card needs.
	Token string
	// Heartbeat is the keep-alive interval of SSE streams; 0 is 15 s.
	Heartbeat time.Duration
	// Bounds are the server's body bounds (shared by every front on one
	// listener).
	Bounds *httpbound.Bounds
}

// NewFront is the same front door Serve puts before its registry (the
// card, the token checked before the body, the body bounds, v1.0 JSON-RPC
// and HTTP+JSON and v0.3 JSON-RPC through the SDK's transports) over
// another task store. Murmur's stream/watch and session routes are mur
// run's and answer 404 here.
func NewFront(ctx context.Context, o FrontOptions) (http.Handler, error) {
	if o.Handler == nil || o.Bounds == nil || o.Base == "" {
		return nil, fmt.Errorf("a2a front: Handler, Bounds and Base are required")
	}
	m, err := newFrontMux(ctx, o.Handler, o.Card, o.Base, o.Token, o.Heartbeat, o.Bounds)
	if err != nil {
		return nil, err
	}
	if m.mcard, err = murmurCard(o.Card, o.Base); err != nil {
		return nil, err
	}
	return m, nil
}

// Traceparent is the caller's W3C traceparent header, as the front door
// hands it to the handler's context ("" without one).
func Traceparent(ctx context.Context) string { return traceparentFrom(ctx) }

// CheckMessage checks what the protocol requires of a message to send,
// as Serve's handler does.
func CheckMessage(req *a2a.SendMessageRequest) error { return validate(req) }
