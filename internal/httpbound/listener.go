package httpbound

import (
	"net"
	"sync"
	"sync/atomic"
)

// Listener caps ln's open connections at MaxConns, and at
// MaxConnsPerClient from one client IP address. A connection past either
// is closed as soon as it is accepted, so waiting clients never pile up in
// the kernel's backlog behind an attacker's; a connection counts until the
// server closes it.
func (b *Bounds) Listener(ln net.Listener) net.Listener {
	return &listener{Listener: ln, b: b, per: map[string]int{}}
}

type listener struct {
	net.Listener
	b    *Bounds
	mu   sync.Mutex
	open int
	per  map[string]int
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := clientIP(c.RemoteAddr())
		if l.admit(client) {
			return &conn{Conn: c, l: l, client: client}, nil
		}
		_ = c.Close()
		l.b.connNotice.warn(l.b.log, "refusing connections: too many open", "client", client,
			"max_per_client", l.b.l.MaxConnsPerClient, "max", l.b.l.MaxConns)
	}
}

func (l *listener) admit(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.b.l.MaxConns || l.per[client] >= l.b.l.MaxConnsPerClient {
		return false
	}
	l.open++
	l.per[client]++
	return true
}

func (l *listener) release(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.per[client]--; l.per[client] == 0 {
		delete(l.per, client)
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

// conn gives its slot back when it is closed or half-closed.
type conn struct {
	net.Conn
	l      *listener
	client string
	done   atomic.Bool
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
		c.l.release(c.client)
	}
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
