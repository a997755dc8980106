package a2a_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// hostilePeer is an allowed peer whose agent card and replies are the
// attacker's: card is served at the well-known path (a status >= 300
// redirects there instead), rpc answers every POST.
func hostilePeer(t *testing.T, card func(self string) string, redirect string, rpc http.HandlerFunc) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if redirect != "" {
				http.Redirect(w, r, redirect, http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, card(srv.URL))
			return
		}
		rpc(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// countingServer counts the connections that reach it.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":"x","result":{"kind":"task","id":"tsk_stolen","contextId":"c","status":{"state":"submitted"}}}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &n
}

func v1Card(url string) string {
	return fmt.Sprintf(`{"name":"x","version":"1","description":"x","supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, url)
}

// A peer the capsule may reach cannot use its agent card, or a redirect,
// to make the capsule's message go somewhere its allow list does not
// name: another host, or the same host without TLS. The hostile guest
// (capsule-probe) sends through the real host import.
func TestSendCardAndRedirectsStayInsideThePolicy(t *testing.T) {
	elsewhere, conns := countingServer(t)
	never := func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the message reached the allowed peer: %s", r.URL)
	}
	tests := []struct {
		name  string
		peer  *httptest.Server
		allow func(peer string) []string
		want  string // the error names this URL as outside the policy
	}{
		{"card names another host", hostilePeer(t, func(string) string { return v1Card(elsewhere.URL) }, "", never),
			func(p string) []string { return []string{p} }, elsewhere.URL},
		{"card redirects to another host", hostilePeer(t, nil, elsewhere.URL+"/.well-known/agent-card.json", never),
			func(p string) []string { return []string{p} }, elsewhere.URL + "/.well-known/agent-card.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			peer := tt.peer.URL
			c := &a2a.Client{Net: rules(t, tt.allow(peer)...)}
			got := probe(t, c)("send", peer, []any{"m", wit.None(), "secret"})
			r, ok := got.(wit.ResultValue)
			if !ok || !r.Err {
				t.Fatalf("send = %#v, want an error", got)
			}
			if msg := r.Value.(string); !strings.Contains(msg, "network policy: '"+tt.want) {
				t.Fatalf("error %q, want it to name %s as outside the policy", msg, tt.want)
			}
			if n := conns.Load(); n != 0 {
				t.Fatalf("the host outside the allow list saw %d connections", n)
			}
		})
	}
}

// A peer allowed only over https cannot use its card to have the message
// sent in clear text to the same host and port: the rule's scheme counts
// on every request, not only on the dial.
func TestSendCardCannotDropTLS(t *testing.T) {
	var plain atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, v1Card(strings.Replace("http://"+r.Host, "https://", "http://", 1)))
	}))
	srv.Listener = &peekListener{Listener: srv.Listener, plain: &plain}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	hostPort := strings.TrimPrefix(srv.URL, "https://")
	c := &a2a.Client{Net: rules(t, "https://"+hostPort), RootCAs: roots}
	got := probe(t, c)("send", srv.URL, []any{"m", wit.None(), "secret"})
	r, ok := got.(wit.ResultValue)
	if !ok || !r.Err || !strings.Contains(r.Value.(string), "network policy: 'http://"+hostPort) {
		t.Fatalf("send = %#v, want the policy to refuse http://%s", got, hostPort)
	}
	if n := plain.Load(); n != 0 {
		t.Fatalf("%d connections sent clear text to the TLS-only peer", n)
	}
}

// peekListener counts connections whose first byte is not a TLS
// handshake record.
type peekListener struct {
	net.Listener
	plain *atomic.Int32
}

func (l *peekListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &peekConn{Conn: c, plain: l.plain}, nil
}

type peekConn struct {
	net.Conn
	plain  *atomic.Int32
	peeked bool
}

func (c *peekConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if !c.peeked && n > 0 {
		c.peeked = true
		if p[0] != 0x16 {
			c.plain.Add(1)
		}
	}
	return n, err
}

// A reply larger than the client accepts fails the send instead of
// filling the host's memory; the 1.0 path decodes through the SDK, so
// the bound sits under it.
func TestSendBoundsTheReply(t *testing.T) {
	peer := hostilePeer(t, func(self string) string { return v1Card(self) }, "", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID string `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%q,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_SUBMITTED"},"metadata":{"pad":"`, req.ID)
		pad := strings.Repeat("A", 1<<20)
		for range 20 {
			if _, err := io.WriteString(w, pad); err != nil {
				return
			}
		}
		io.WriteString(w, `"}}}}`)
	})
	c := &a2a.Client{Net: rules(t, peer.URL), SendTimeout: time.Minute}
	_, err := c.Send(context.Background(), peer.URL, a2a.Message{MessageID: "m"})
	if err == nil || !strings.Contains(err.Error(), "larger than the client accepts") {
		t.Fatalf("a 20 MiB reply: %v", err)
	}
}

// mur send's token goes to the agent it names and nowhere else: a card
// fetch redirected to another host does not carry it.
func TestOneShotTokenStaysWithTheAgent(t *testing.T) {
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Authorization"); a != "" {
			leaked.Store(a)
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(other.Close)
	upstream, _ := ours(t)
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			http.Redirect(w, r, other.URL+"/card.json", http.StatusFound)
			return
		}
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(peer.Close)
	_, _ = a2a.OneShot{Token: "tok-secret"}.Send(t.Context(), peer.URL, "hi")
	if v := leaked.Load(); v != nil {
		t.Fatalf("the other host got Authorization: %v", v)
	}
	_ = upstream
}
