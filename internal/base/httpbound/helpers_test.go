package httpbound

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serve starts a real server on loopback with the bounds l in front of h
// and returns its bounds and address.
func serve(t *testing.T, l Limits, h http.Handler) (*Bounds, string) {
	t.Helper()
	b := New(l, slog.New(slog.DiscardHandler))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := b.Server(b.Body(h), nil)
	go func() { _ = srv.Serve(b.Listener(ln)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return b, ln.Addr().String()
}

// echo answers with the body it was given.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(data)
})

// client is a raw connection to the server, from the loopback address ip.
type client struct {
	net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, addr, ip string) *client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// Far past any deadline a test sets: a server that never answers fails
	// the test instead of hanging it.
	if err := c.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	return &client{Conn: c, r: bufio.NewReader(c)}
}

func (c *client) send(t *testing.T, raw string) {
	t.Helper()
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
}

// response reads one response: its status and body, or the error that
// ended the connection instead.
func (c *client) response() (int, string, error) {
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// continued reads the 100 Continue net/http sends when the handler starts
// reading the body: Body has then reserved it.
func (c *client) continued(t *testing.T) {
	t.Helper()
	status, err := c.r.ReadString('\n')
	if err != nil || !strings.Contains(status, "100 Continue") {
		t.Fatalf("want 100 Continue, got %q %v", status, err)
	}
	if _, err := c.r.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
}
