package httpbound

import (
	"net/http"
	"testing"
)

// Connections past the cap from one address, or in all, are closed at
// once; a connection that ends gives its slot back.
func TestListenerCapsConnections(t *testing.T) {
	l := testLimits
	l.MaxConns, l.MaxConnsPerClient = 3, 2
	_, addr := serve(t, l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	get := "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
	served := func(c *client, request string) bool {
		c.send(t, request)
		status, _, err := c.response()
		return err == nil && status == 200
	}
	steps := []struct {
		name, from string
		want       bool
	}{
		{"first from one address", "127.0.0.1", true},
		{"second from it", "127.0.0.1", true},
		{"third from it", "127.0.0.1", false},
		{"first from another", "127.0.0.2", true},
		{"past the total", "127.0.0.3", false},
	}
	var open []*client
	for _, s := range steps {
		c := dial(t, addr, s.from)
		if got := served(c, get); got != s.want {
			t.Fatalf("%s (%s): served %v, want %v", s.name, s.from, got, s.want)
		}
		open = append(open, c)
	}
	if !served(open[0], "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") {
		t.Fatal("closing request not served")
	}
	if _, err := open[0].r.ReadByte(); err == nil {
		t.Fatal("the server kept the connection open after Connection: close")
	}
	if !served(dial(t, addr, "127.0.0.1"), get) {
		t.Fatal("a slot given back was not reused")
	}
}

func TestLoopback(t *testing.T) {
	for bind, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "127.1.2.3": true,
		"0.0.0.0": false, "::": false, "192.168.1.10": false, "example.com": false, "": false} {
		if Loopback(bind) != want {
			t.Errorf("Loopback(%q) = %v", bind, !want)
		}
	}
}
