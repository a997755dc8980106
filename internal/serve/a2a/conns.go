package a2a

import (
	"net"
	"net/http"
	"sync"
)

// connTracker knows the connections that never sent a request. Shutdown
// waits 5 s before it closes those (a client's spare dials), which would
// hold every session end for nothing.
type connTracker struct {
	mu    sync.Mutex
	fresh map[net.Conn]struct{}
	done  bool
}

func (c *connTracker) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case state == http.StateNew && c.done:
		_ = conn.Close()
	case state == http.StateNew:
		c.fresh[conn] = struct{}{}
	default:
		delete(c.fresh, conn)
	}
}

// closeFresh closes the request-less connections, now and from now on.
func (c *connTracker) closeFresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = true
	for conn := range c.fresh {
		_ = conn.Close()
	}
	c.fresh = nil
}
