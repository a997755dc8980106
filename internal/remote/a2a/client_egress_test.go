package a2a_test

import (
	"context"
	"crypto/x509"
	"net"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/remote/a2a"
	"github.com/mur-go/mur/internal/testing/testguest"
)

func attackerDNS() *testguest.DNS {
	return testguest.NewDNS(map[string][]string{
		"metadata.test": {"169.254.169.254"},
		"zero.test":     {"0.0.0.0"},
		"rebind.test":   {"127.0.0.1", "169.254.169.254"},
		"example.com":   {"127.0.0.1"},
		"other.test":    {"127.0.0.1"},
	})
}

// A capsule whose allow list names a host cannot send through it to a
// metadata or unspecified address (0.0.0.0 would reach the loopback peer).
func TestSendRefusesSpecialAddressesByName(t *testing.T) {
	peer := newPeer(t, false, submitted)
	_, port, _ := net.SplitHostPort(peer.srv.Listener.Addr().String())
	for _, tc := range []struct{ name, addr string }{{"metadata.test", "169.254.169.254"}, {"zero.test", "0.0.0.0"}} {
		hostPort := tc.name + ":" + port
		c := &a2a.Client{Net: rules(t, hostPort), Resolver: attackerDNS()}
		got := probe(t, c)("send", "http://"+hostPort, []any{"m", wit.None(), "hi"})
		want := "failed to connect to http://" + hostPort + ": network policy: " + tc.name + " resolved to " + tc.addr
		if r, ok := got.(wit.ResultValue); !ok || !r.Err || !strings.HasPrefix(r.Value.(string), want) {
			t.Errorf("send to %s = %#v, want an error starting %q", tc.name, got, want)
		}
	}
	if n := peer.conns.Load(); n != 0 || len(peer.bodies) != 0 {
		t.Fatalf("the peer saw %d connections, %d requests", n, len(peer.bodies))
	}
}

// One lookup per send, and the message goes to the address it returned.
func TestSendPinsTheCheckedAddress(t *testing.T) {
	peer := newPeer(t, false, submitted)
	_, port, _ := net.SplitHostPort(peer.srv.Listener.Addr().String())
	dns := attackerDNS()
	c := &a2a.Client{Net: rules(t, "rebind.test:"+port), Resolver: dns}
	if _, err := c.Send(context.Background(), "http://rebind.test:"+port, a2a.Message{MessageID: "m"}); err != nil {
		t.Fatal(err)
	}
	if n := dns.Lookups("rebind.test"); n != 1 || len(peer.bodies) != 1 {
		t.Fatalf("%d lookups, %d requests at the peer; want one of each", n, len(peer.bodies))
	}
}

// TLS verifies the peer's name, not the pinned address: the test
// certificate names example.com and not other.test.
func TestSendTLSVerifiesThePeerName(t *testing.T) {
	peer := newPeer(t, true, submitted)
	_, port, _ := net.SplitHostPort(peer.srv.Listener.Addr().String())
	roots := x509.NewCertPool()
	roots.AddCert(peer.srv.Certificate())
	c := &a2a.Client{Net: rules(t, "https://example.com:"+port, "https://other.test:"+port), Resolver: attackerDNS(), RootCAs: roots}
	if _, err := c.Send(context.Background(), "https://example.com:"+port, a2a.Message{MessageID: "m"}); err != nil {
		t.Fatalf("example.com: %v", err)
	}
	if _, err := c.Send(context.Background(), "https://other.test:"+port, a2a.Message{MessageID: "m"}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("other.test: %v", err)
	}
}
