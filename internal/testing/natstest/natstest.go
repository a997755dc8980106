// Package natstest starts JetStream clusters for tests: embedded NATS
// servers (internal/cluster/embedded) routed to each other on loopback,
// in the test process, and the streams and buckets of a mur cluster on
// them once JetStream has elected its meta leader.
package natstest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/mur-go/mur/internal/cluster/embedded"
	"github.com/mur-go/mur/internal/cluster/queue"
)

// Cluster is n embedded servers routed to each other.
type Cluster struct {
	Servers []*embedded.Server
	// URLs are the servers' client URLs, comma-separated (a --nats).
	URLs string
}

// Start starts a cluster of n servers (a single server, not clustered,
// when n is 1), stopped when t ends, and returns once every server takes
// clients.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{}
	ports := make([]int, n)
	var routes []string
	for i := range ports {
		ports[i] = freePort(t)
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[i]))
	}
	for i := range n {
		o := embedded.Options{Name: fmt.Sprintf("n%d", i), DataDir: t.TempDir()}
		if n > 1 {
			o.Cluster, o.ClusterPort, o.Routes = "murtest", ports[i], routes
		}
		s, err := embedded.Start(o, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Shutdown)
		c.Servers = append(c.Servers, s)
	}
	var urls []string
	for _, s := range c.Servers {
		if err := s.Ready(30 * time.Second); err != nil {
			t.Fatal(err)
		}
		urls = append(urls, s.URL())
	}
	c.URLs = strings.Join(urls, ",")
	return c
}

// freePort is a loopback port free a moment ago, for a route listener
// the other servers must know before it is bound.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Connect connects to urls (one server's or the cluster's), closed when
// t ends.
func Connect(t testing.TB, urls string) *queue.Conn {
	t.Helper()
	conn, err := queue.Connect(t.Context(), urls, "test", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	return conn
}

// Ensure sets up a mur cluster's streams and buckets, each with as many
// replicas as the cluster has servers, once JetStream has a meta leader.
func (c *Cluster) Ensure(t testing.TB) *queue.Stores {
	t.Helper()
	conn := Connect(t, c.URLs)
	c.awaitMeta(t, conn)
	// With a meta leader, what is refused is refused at once: a server
	// not yet known to it ("no suitable peers for placement").
	deadline := time.Now().Add(60 * time.Second)
	for {
		// A request a server lost on its way to a leader is not answered.
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		st, err := queue.Ensure(ctx, conn.JS, queue.Setup{Replicas: len(c.Servers)})
		cancel()
		if err == nil {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("setting up the cluster's streams: %v", err)
		}
		pause(t)
	}
}

// pause paces a loop that asks the cluster until it says what the test
// waits for.
func pause(t testing.TB) {
	select {
	case <-t.Context().Done():
		t.Fatal(t.Context().Err())
	case <-time.After(50 * time.Millisecond):
	}
}

// awaitMeta returns once JetStream has a meta leader: until then it
// answers no request. It asks every 50 ms and is told at once once a
// leader answers, instead of waiting out a request nobody answers.
func (c *Cluster) awaitMeta(t testing.TB, conn *queue.Conn) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		m, err := conn.NC.Request("$JS.API.INFO", nil, 50*time.Millisecond)
		switch {
		case err == nil && !strings.Contains(string(m.Data), `"error"`):
			return
		case err == nil:
			err = fmt.Errorf("%s", m.Data)
		case !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, nats.ErrNoResponders):
			t.Fatalf("asking JetStream for its meta leader: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the JetStream cluster elected no meta leader in 60 s: %v", err)
		}
		pause(t)
	}
}

// DirectGets reports whether server i answers direct reads of stream
// itself (a replica that has caught up, of a stream that allows them)
// rather than leaving them to other servers.
func (c *Cluster) DirectGets(i int, stream string) bool {
	subj := "$JS.API.DIRECT.GET." + stream
	sz, err := c.Servers[i].NATS().Subsz(&server.SubszOptions{Subscriptions: true, Account: "$G", Test: subj})
	if err != nil {
		return false
	}
	// What matches includes the JetStream API's own $JS.API.>.
	for _, sub := range sz.Subs {
		if sub.Subject == subj {
			return true
		}
	}
	return false
}
