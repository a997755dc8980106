package httpbound

import (
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Limits are the bounds; a zero field takes its default (Defaults).
type Limits struct {
	// MaxBody is the largest request body. One announced larger is
	// answered 413 before a byte of it is read; one sent in chunks, as
	// soon as it grows past the bound.
	MaxBody int64
	// SmallBody is what any body may hold without drawing on BodyBudget,
	// so an ordinary request is read even while others hold the budget.
	SmallBody int64
	// BodyBudget is what the larger bodies being read hold together (at
	// least MaxBody). A body that would take more than is left is
	// answered 503 unread.
	BodyBudget int64
	// BodyTimeout is how long a client has to send a whole body; the
	// connection is then answered 408 and closed.
	BodyTimeout time.Duration
	// HeaderTimeout is how long a client has to send a request's headers,
	// and MaxHeaderBytes how many it may send.
	HeaderTimeout  time.Duration
	MaxHeaderBytes int
	// IdleTimeout closes a kept-alive connection that sends no request.
	IdleTimeout time.Duration
	// MaxConns caps the open connections, MaxConnsPerClient those from
	// one client address; a connection past either is closed at once.
	MaxConns, MaxConnsPerClient int
}

// Defaults are the bounds of mur's servers.
func Defaults() Limits {
	return Limits{
		MaxBody:           1 << 20,
		SmallBody:         16 << 10,
		BodyBudget:        16 << 20,
		BodyTimeout:       30 * time.Second,
		HeaderTimeout:     10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		IdleTimeout:       120 * time.Second,
		MaxConns:          512,
		MaxConnsPerClient: 128,
	}
}

// orDefaults fills l's zero fields from Defaults.
func (l Limits) orDefaults() Limits {
	d := Defaults()
	pick(&l.MaxBody, d.MaxBody)
	pick(&l.SmallBody, d.SmallBody)
	pick(&l.BodyBudget, d.BodyBudget)
	pick(&l.BodyTimeout, d.BodyTimeout)
	pick(&l.HeaderTimeout, d.HeaderTimeout)
	pick(&l.MaxHeaderBytes, d.MaxHeaderBytes)
	pick(&l.IdleTimeout, d.IdleTimeout)
	pick(&l.MaxConns, d.MaxConns)
	pick(&l.MaxConnsPerClient, d.MaxConnsPerClient)
	return l
}

func pick[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Bounds holds one server's limits and what its clients hold of them.
type Bounds struct {
	l      Limits
	budget atomic.Int64 // BodyBudget bytes not reserved
	log    *slog.Logger
	// connNotice and bodyNotice space the notices of refused connections
	// and bodies, each on its own so one kind does not hide the other.
	connNotice, bodyNotice throttle
}

// New returns the bounds of one server; log receives the notices of
// refused connections and bodies (at most one every few seconds).
func New(l Limits, log *slog.Logger) *Bounds {
	if log == nil {
		log = slog.Default()
	}
	b := &Bounds{l: l.orDefaults(), log: log}
	// A body of MaxBody must fit the budget, or it could never be read.
	b.l.BodyBudget = max(b.l.BodyBudget, b.l.MaxBody)
	b.budget.Store(b.l.BodyBudget)
	return b
}

// Server returns an http.Server for h with the header, idle and header
// size bounds, which tells Listener which connections wait on their
// clients; onState, if not nil, also sees every connection state change.
// It sets no ReadTimeout or WriteTimeout: those would end long-lived
// streams (Body bounds the body's time instead).
func (b *Bounds) Server(h http.Handler, onState func(net.Conn, http.ConnState)) *http.Server {
	return &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			markConn(r, true)
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: b.l.HeaderTimeout, IdleTimeout: b.l.IdleTimeout, MaxHeaderBytes: b.l.MaxHeaderBytes,
		ConnContext: withConn,
		ConnState: func(c net.Conn, s http.ConnState) {
			connState(c, s)
			if onState != nil {
				onState(c, s)
			}
		},
	}
}
