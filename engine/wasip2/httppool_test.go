package wasip2_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// connServer answers "ok" and records, for each request, the connection it
// came on (the client's address) and its authorization header.
type connServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []seenRequest
}

type seenRequest struct{ conn, auth string }

func newConnServer(t testing.TB) *connServer {
	s := &connServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{r.RemoteAddr, r.Header.Get("Authorization")})
		s.mu.Unlock()
		w.Write([]byte("ok"))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *connServer) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

// fetcherOn is one store of the fetch guest on l: every call of a tool
// is a store of its own on its session's linker.
func fetcherOn(t testing.TB, l *component.Linker, g wasip2.Grants) *fetcher {
	t.Helper()
	wctx, err := wasip2.NewCtx(g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wctx.Close() })
	inst, err := l.Instantiate(context.Background(), compileGuest(t, fetchGuest), &component.Store{Data: wctx})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	f, err := inst.Func(runExport)
	if err != nil {
		t.Fatal(err)
	}
	return &fetcher{f: f}
}

func rulesFor(t testing.TB, entries ...string) policy.Rules {
	t.Helper()
	r, err := policy.ParseNetRules(entries)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Successive stores of one linker send their requests on one connection:
// a call no longer pays for a connection of its own.
func TestHTTPPoolSharedAcrossStores(t *testing.T) {
	srv := newConnServer(t)
	l := newLinker(t)
	g := wasip2.Grants{Net: rulesFor(t, srv.URL)}
	for range 3 {
		if r := fetcherOn(t, l, g).do(t, fetchReq{URL: srv.URL + "/"}); r.status != "passed" || r.data != "ok" {
			t.Fatalf("%+v", r)
		}
	}
	seen := srv.requests()
	if len(seen) != 3 || seen[1].conn != seen[0].conn || seen[2].conn != seen[0].conn {
		t.Fatalf("requests came on connections %v, want 3 on one", seen)
	}
}

// dialDenied admits every request by name but no dial: a policy whose two
// questions disagree, which the host must not resolve in the guest's favour.
type dialDenied struct{}

func (dialDenied) AllowRequest(string, string, uint16) bool { return true }
func (dialDenied) AdmitDial(string, uint16) (string, bool)  { return "", false }

// A hostile guest in a store beside one that left a connection in the
// pool tries to ride it where its own egress would never have connected:
// a name its resolver maps to the metadata address, a policy that refuses
// the dial, no rule at all. Each is refused and the server sees nothing.
func TestHTTPPoolKeepsEachStoresEgress(t *testing.T) {
	srv := newConnServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	name := "api.test:" + port
	good := testguest.NewDNS(map[string][]string{"api.test": {"127.0.0.1"}})
	for _, tc := range []struct {
		attack string
		g      wasip2.Grants
	}{
		{"its resolver maps the name to 169.254.169.254", wasip2.Grants{Net: rulesFor(t, name), Resolver: attackerDNSFor("api.test")}},
		{"its policy admits the request but not the dial", wasip2.Grants{Net: dialDenied{}, Resolver: good}},
		{"no rule admits the host", wasip2.Grants{Net: rulesFor(t, "example.com"), Resolver: good}},
	} {
		t.Run(tc.attack, func(t *testing.T) {
			l := newLinker(t)
			if r := fetcherOn(t, l, wasip2.Grants{Net: rulesFor(t, name), Resolver: good}).do(t, fetchReq{URL: "http://" + name + "/"}); r.status != "passed" {
				t.Fatalf("the honest store: %+v", r)
			}
			before := len(srv.requests())
			tc.g.Log = slog.New(slog.DiscardHandler)
			r := fetcherOn(t, l, tc.g).do(t, fetchReq{URL: "http://" + name + "/"})
			if r.status != "error" {
				t.Fatalf("the hostile store reached the server: %+v", r)
			}
			if n := len(srv.requests()) - before; n != 0 {
				t.Fatalf("the server saw %d requests from the hostile store", n)
			}
		})
	}
}

// attackerDNSFor maps name to the cloud metadata address.
func attackerDNSFor(name string) *testguest.DNS {
	return testguest.NewDNS(map[string][]string{name: {"169.254.169.254"}})
}

// A tool beside its driver on the session's linker: the driver's store
// holds the credential, the tool's does not. The tool's request to the
// same origin goes out without the key and never on a connection that
// carried it.
func TestHTTPPoolKeepsCredentialConnectionsApart(t *testing.T) {
	srv := newConnServer(t)
	origin, err := wasip2.OriginOf(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	l := newLinker(t)
	rules := rulesFor(t, srv.URL)
	cred := &wasip2.Credential{Origin: origin, Header: "Authorization", Prefix: "Bearer ", Secret: "sk-pooled-secret"}
	driver := wasip2.Grants{Net: rules, Credential: cred}
	tool := wasip2.Grants{Net: rules}
	for _, g := range []wasip2.Grants{driver, tool, driver, tool} {
		if r := fetcherOn(t, l, g).do(t, fetchReq{URL: srv.URL + "/"}); r.status != "passed" {
			t.Fatalf("%+v", r)
		}
	}
	seen := srv.requests()
	if len(seen) != 4 {
		t.Fatalf("server saw %v", seen)
	}
	keyed := map[string]bool{}
	for i, s := range seen {
		if want := i%2 == 0; (s.auth == "Bearer sk-pooled-secret") != want {
			t.Fatalf("request %d (driver: %v) carried authorization %q", i, want, s.auth)
		}
		if i%2 == 0 {
			keyed[s.conn] = true
		}
	}
	for i := 1; i < 4; i += 2 {
		if keyed[seen[i].conn] {
			t.Fatalf("the tool's request %d came on connection %s, which carried the driver's key", i, seen[i].conn)
		}
	}
	if seen[2].conn != seen[0].conn || seen[3].conn != seen[1].conn {
		t.Errorf("each side should reuse its own connection: %v", seen)
	}
}
