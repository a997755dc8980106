package httpbound

import (
	"net/http"
	"testing"
	"time"
)

const get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

// holding serves GET / at once and holds GET /hold until release is
// closed, saying on started when it began.
func holding() (http.Handler, chan struct{}, chan struct{}) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			started <- struct{}{}
			<-release
		}
	}), started, release
}

func served(t *testing.T, c *client, request string) bool {
	t.Helper()
	c.send(t, request)
	status, _, err := c.response()
	return err == nil && status == 200
}

func closed(c *client) bool {
	_, err := c.r.ReadByte()
	return err != nil
}

// At a cap, a new connection takes the slot of the one that has waited
// longest on its client: of the same address at the per-address cap, of
// any at the total one.
func TestNewConnectionTakesTheLongestWaitingSlot(t *testing.T) {
	tests := []struct {
		name     string
		max, per int
		first    []string // addresses of connections left idle, oldest first
		next     string
	}{
		{name: "per address", max: 10, per: 2, first: []string{"127.0.0.1", "127.0.0.1"}, next: "127.0.0.1"},
		{name: "in all", max: 2, per: 2, first: []string{"127.0.0.1", "127.0.0.2"}, next: "127.0.0.3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := testLimits
			l.MaxConns, l.MaxConnsPerClient = tc.max, tc.per
			h, _, _ := holding()
			_, addr := serve(t, l, h)
			var idle []*client
			for _, ip := range tc.first {
				c := dial(t, addr, ip)
				if !served(t, c, get) {
					t.Fatalf("connection from %s not served", ip)
				}
				idle = append(idle, c)
			}
			if !served(t, dial(t, addr, tc.next), get) {
				t.Fatal("the new connection was not served")
			}
			if !closed(idle[0]) {
				t.Error("the longest idle connection was not closed")
			}
			if !served(t, idle[1], get) {
				t.Error("a connection that waited less was closed")
			}
		})
	}
}

// A client stalled in its body waits on its client and gives way too.
func TestStalledBodyGivesWay(t *testing.T) {
	l := testLimits
	l.MaxConns, l.BodyTimeout = 1, time.Minute
	_, addr := serve(t, l, echo)
	stalled := dial(t, addr, "127.0.0.1")
	stalled.send(t, "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n")
	stalled.continued(t)
	if !served(t, dial(t, addr, "127.0.0.1"), get) {
		t.Fatal("a prompt client was kept out by a stalled one")
	}
	if !closed(stalled) {
		t.Error("the stalled connection is still open")
	}
}

// When every connection is being served a new one is closed, and a slot
// is free again as soon as its connection ends.
func TestServedConnectionsKeepTheirSlots(t *testing.T) {
	l := testLimits
	l.MaxConns, l.MaxConnsPerClient = 3, 2
	h, started, release := holding()
	_, addr := serve(t, l, h)
	var held []*client
	for range 2 {
		c := dial(t, addr, "127.0.0.1")
		c.send(t, "GET /hold HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		<-started
		held = append(held, c)
	}
	if refused := dial(t, addr, "127.0.0.1"); served(t, refused, get) {
		t.Fatal("a connection past the per-address cap was served while all were busy")
	}
	close(release)
	for _, c := range held {
		if status, _, err := c.response(); status != 200 || !closed(c) {
			t.Fatalf("held request: HTTP %d %v, want 200 and the connection closed", status, err)
		}
	}
	if !served(t, dial(t, addr, "127.0.0.1"), get) {
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
