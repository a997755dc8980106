package wasip2_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// attackerDNS maps names an allow list admits to addresses a name must
// not lead to, plus rebind.test, whose second answer differs from its
// first.
func attackerDNS() *testguest.DNS {
	return testguest.NewDNS(map[string][]string{
		"metadata.test": {"169.254.169.254"},
		"zero.test":     {"0.0.0.0"},
		"mixed.test":    {"127.0.0.1,169.254.169.254"},
		"imds6.test":    {"fd00:ec2::254"},
		"mapped.test":   {"::ffff:169.254.169.254"},
		"nat64.test":    {"64:ff9b::a9fe:a9fe"},
		"rebind.test":   {"127.0.0.1", "169.254.169.254"},
		"example.com":   {"127.0.0.1"},
		"other.test":    {"127.0.0.1"},
	})
}

func newEgressFetcher(t testing.TB, dns wasip2.Resolver, log *slog.Logger, rules ...string) *fetcher {
	t.Helper()
	nr, err := policy.ParseNetRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := instantiate(t, fetchGuest, wasip2.Grants{Net: nr, Resolver: dns, Log: log}, component.Limits{})
	f, err := inst.Func(runExport)
	if err != nil {
		t.Fatal(err)
	}
	return &fetcher{f: f}
}

// A guest whose allow list names a host cannot use that name to reach
// metadata, link-local, unspecified (0.0.0.0 reaches the loopback
// listener on Linux) or mapped forms of them; the listener sees nothing
// and the log says which address and rule.
func TestFetchEgressRefusesSpecialAddressesByName(t *testing.T) {
	srv, hits, conns := echoServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, name := range []string{"metadata.test", "zero.test", "mixed.test", "imds6.test", "mapped.test", "nat64.test"} {
		t.Run(name, func(t *testing.T) {
			var log bytes.Buffer
			g := newEgressFetcher(t, attackerDNS(), slog.New(slog.NewTextHandler(&log, nil)), name+":"+port)
			r := g.do(t, fetchReq{URL: "http://" + name + ":" + port + "/"})
			if r.status != "error" {
				t.Fatalf("reached %s: %+v", name, r)
			}
			if !strings.Contains(log.String(), "egress refused") || !strings.Contains(log.String(), "rule="+name+":"+port) {
				t.Fatalf("log does not say why: %q", log.String())
			}
		})
	}
	if h, c := hits.Load(), conns.Load(); h != 0 || c != 0 {
		t.Fatalf("the listener saw %d requests on %d connections", h, c)
	}
}

// A rule naming a special address as a literal still reaches it: 0.0.0.0
// is unspecified, yet "0.0.0.0:port" admits it (and Linux delivers it to
// the loopback listener).
func TestFetchEgressLiteralRuleReachesSpecialAddress(t *testing.T) {
	srv, hits, _ := echoServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	dns := attackerDNS()
	r := newEgressFetcher(t, dns, nil, "0.0.0.0:"+port).do(t, fetchReq{URL: "http://0.0.0.0:" + port + "/"})
	if r.status != "passed" || r.data != "GET" || hits.Load() != 1 {
		t.Fatalf("literal rule: %+v, %d hits", r, hits.Load())
	}
}

// One lookup per connection, and the connection goes to the address that
// lookup returned: rebind.test answers 127.0.0.1 and then
// 169.254.169.254, and only the first answer is ever used.
func TestFetchEgressPinsTheCheckedAddress(t *testing.T) {
	srv, hits, conns := echoServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	dns := attackerDNS()
	r := newEgressFetcher(t, dns, nil, "rebind.test:"+port).do(t, fetchReq{URL: "http://rebind.test:" + port + "/"})
	if r.status != "passed" || r.data != "GET" {
		t.Fatalf("%+v", r)
	}
	if n := dns.Lookups("rebind.test"); n != 1 || hits.Load() != 1 || conns.Load() != 1 {
		t.Fatalf("%d lookups, %d requests, %d connections; want one of each", n, hits.Load(), conns.Load())
	}
}

// TLS verifies the name the request used, not the pinned address: the
// test certificate names example.com, so example.com pinned to 127.0.0.1
// succeeds and other.test pinned to the same address fails.
func TestEgressTLSVerifiesTheHostName(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	rules, err := policy.ParseNetRules([]string{"https://example.com:" + port, "https://other.test:" + port})
	if err != nil {
		t.Fatal(err)
	}
	tr := wasip2.NewEgress(rules, attackerDNS(), nil).Transport(&tls.Config{RootCAs: roots})
	t.Cleanup(tr.CloseIdleConnections)
	cl := &http.Client{Transport: tr}
	for host, wantOK := range map[string]bool{"example.com": true, "other.test": false} {
		u := url.URL{Scheme: "https", Host: net.JoinHostPort(host, port), Path: "/"}
		resp, err := cl.Get(u.String())
		if err == nil {
			resp.Body.Close()
		}
		var certErr *tls.CertificateVerificationError
		if wantOK && err != nil || !wantOK && !errors.As(err, &certErr) {
			t.Errorf("%s: %v", host, err)
		}
	}
}

// The dialer checks the allow list itself, so a transport built from it
// cannot be pointed anywhere else.
func TestEgressDialRefusesUnlistedHosts(t *testing.T) {
	rules, _ := policy.ParseNetRules([]string{"example.com:1"})
	e := wasip2.NewEgress(rules, attackerDNS(), nil)
	for _, addr := range []string{"example.com:2", "other.test:1", "127.0.0.1:1"} {
		_, err := e.DialContext(context.Background(), "tcp", addr)
		var denied *wasip2.EgressDeniedError
		if !errors.As(err, &denied) {
			t.Errorf("%s: %v", addr, err)
		}
	}
}
