package httpbound

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Listener caps ln's open connections at MaxConns, and at
// MaxConnsPerClient from one client IP address. A new connection that
// would pass a cap takes the slot of the connection that has waited
// longest on its client (idle between requests, or still sending a
// request's headers or body; of the same client when it is that client's
// cap), which is closed; when every connection is being served, the new
// one is closed instead. So a slow or silent client cannot keep one that
// sends its request promptly out, wherever both come from.
func (b *Bounds) Listener(ln net.Listener) net.Listener {
	return &listener{Listener: ln, b: b, conns: map[*conn]struct{}{}, per: map[string]int{}}
}

type listener struct {
	net.Listener
	b     *Bounds
	mu    sync.Mutex
	conns map[*conn]struct{} // those holding a slot
	per   map[string]int     // slots by client address
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &conn{Conn: nc, l: l, client: clientIP(nc.RemoteAddr()), since: time.Now()}
		admitted, taken := l.admit(c)
		if taken != nil {
			_ = taken.Conn.Close()
			l.b.connNotice.warn(l.b.log, "too many connections: closing the one waiting longest on its client",
				"client", taken.client, "waited", time.Since(taken.since).Round(time.Millisecond),
				"max_per_client", l.b.l.MaxConnsPerClient, "max", l.b.l.MaxConns)
		}
		if admitted {
			return c, nil
		}
		_ = nc.Close()
		l.b.connNotice.warn(l.b.log, "too many connections, all being served: refusing a new one", "client", c.client,
			"max_per_client", l.b.l.MaxConnsPerClient, "max", l.b.l.MaxConns)
	}
}

// admit gives c a slot. When a cap is reached it takes the slot of the
// connection waiting longest on its client, and returns that connection
// for the caller to close.
func (l *listener) admit(c *conn) (bool, *conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var taken *conn
	switch {
	case l.per[c.client] >= l.b.l.MaxConnsPerClient:
		if taken = l.longestWaiting(c.client); taken == nil {
			return false, nil
		}
	case len(l.conns) >= l.b.l.MaxConns:
		if taken = l.longestWaiting(""); taken == nil {
			return false, nil
		}
	}
	if taken != nil {
		taken.done.Store(true)
		l.drop(taken)
	}
	l.conns[c] = struct{}{}
	l.per[c.client]++
	return true, taken
}

// longestWaiting is the connection (of client, unless "") that has waited
// longest on its client, nil if every one is being served.
func (l *listener) longestWaiting(client string) *conn {
	var oldest *conn
	for c := range l.conns {
		if c.serving || (client != "" && c.client != client) {
			continue
		}
		if oldest == nil || c.since.Before(oldest.since) {
			oldest = c
		}
	}
	return oldest
}

func (l *listener) drop(c *conn) {
	delete(l.conns, c)
	if l.per[c.client]--; l.per[c.client] == 0 {
		delete(l.per, c.client)
	}
}

// mark records whether c is being served or waits on its client (since
// now).
func (l *listener) mark(c *conn, serving bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !serving && !c.serving {
		return // still waiting: since stays when it began
	}
	c.serving = serving
	if !serving {
		c.since = time.Now()
	}
}

// clientIP is the address a connection comes from, without its port.
func clientIP(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// conn is an accepted connection holding a slot until it is closed,
// half-closed, or its slot is taken.
type conn struct {
	net.Conn
	l      *listener
	client string
	done   atomic.Bool
	// serving and since are guarded by l.mu: whether a handler is running
	// for the connection, and if not since when it has waited on its
	// client.
	serving bool
	since   time.Time
}

// Close frees the slot first, so a client that sees its connection end
// can connect again.
func (c *conn) Close() error {
	c.release()
	return c.Conn.Close()
}

// CloseWrite lets net/http half-close the connection after an error reply
// and linger (500 ms) before it closes it, so the client reads the reply
// instead of a reset. The connection serves nothing more, so its slot is
// free from here: a client refused a body can connect again at once.
func (c *conn) CloseWrite() error {
	c.release()
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *conn) release() {
	if c.done.CompareAndSwap(false, true) {
		c.l.mu.Lock()
		c.l.drop(c)
		c.l.mu.Unlock()
	}
}

// connKey carries a request's *conn in its context (Server's ConnContext).
type connKey struct{}

// markConn records whether the connection r came on is being served or
// waits on its client; nothing for a connection that is not Listener's.
func markConn(r *http.Request, serving bool) {
	if c, ok := r.Context().Value(connKey{}).(*conn); ok {
		c.l.mark(c, serving)
	}
}

// connState follows net/http's view of a connection: a request begun
// (its headers arriving) or an idle keep-alive waits on the client.
func connState(nc net.Conn, s http.ConnState) {
	if c, ok := nc.(*conn); ok && (s == http.StateActive || s == http.StateIdle) {
		c.l.mark(c, false)
	}
}

func withConn(ctx context.Context, nc net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, nc)
}

// Loopback reports whether a bind address ("127.0.0.1", "::1",
// "localhost") reaches only this machine; any other name or address is
// taken to reach beyond it.
func Loopback(bind string) bool {
	if bind == "localhost" {
		return true
	}
	ip := net.ParseIP(bind)
	return ip != nil && ip.IsLoopback()
}
