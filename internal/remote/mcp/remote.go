package mcp

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/engine/wasip2"
)

// maxResponse bounds a response that is not an event stream (whose
// events the SDK bounds): the SDK reads a JSON response whole.
const maxResponse = 16 << 20

// maxRedirects bounds the redirects one request follows, each to the
// server's own origin.
const maxRedirects = 5

// Remote is a server reached over streamable HTTP from the host.
type Remote struct {
	URL string
	// Headers go with every request to URL's origin and nowhere else;
	// their values are credentials.
	Headers []Header
	// Net is capabilities.network.allow (policy.Rules): every request is
	// checked against it and dialled through the pinned egress of
	// wasi:http. Nil denies every request.
	Net wasip2.NetPolicy
	// Resolver looks up the server's name, once per connection; nil uses
	// net.DefaultResolver.
	Resolver wasip2.Resolver
	// RootCAs verifies an https server; nil uses the system's roots.
	RootCAs *x509.CertPool
}

// Header is one header of a remote server.
type Header struct{ Name, Value string }

// PolicyError is a request capabilities.network.allow does not admit, or
// one to another origin than the server's.
type PolicyError struct{ URL, Why string }

func (e *PolicyError) Error() string { return fmt.Sprintf("network policy: '%s' %s", e.URL, e.Why) }

// errBodyTooLarge is a response past maxResponse.
var errBodyTooLarge = errors.New("the response is larger than the client accepts")

// transport is the SDK's streamable HTTP client transport over r's
// guard.
func (r *Remote) transport(log *slog.Logger) (sdk.Transport, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return nil, err
	}
	egress := wasip2.NewEgress(r.Net, r.Resolver, log)
	g := &guard{origin: originOf(u), headers: r.Headers, egress: egress,
		next: egress.Transport(&tls.Config{RootCAs: r.RootCAs})}
	if err := g.admit(u); err != nil {
		return nil, err
	}
	hc := &http.Client{Transport: g, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil // the guard refuses a hop elsewhere
	}}
	return &sdk.StreamableClientTransport{Endpoint: r.URL, HTTPClient: hc}, nil
}

// guard is the RoundTripper under every request the SDK makes of a
// remote server, the session's GET stream, each POST, the closing DELETE
// and every redirect hop: only the server's origin, only what the
// network rules admit, the headers added by the host, the response
// bounded.
type guard struct {
	origin  string
	headers []Header
	egress  *wasip2.Egress
	next    http.RoundTripper
}

func (g *guard) admit(u *url.URL) error {
	if originOf(u) != g.origin {
		return &PolicyError{URL: u.String(), Why: "is not the MCP server's origin " + g.origin}
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port, _ := strconv.ParseUint(portOf(u), 10, 16)
	if !g.egress.Allows(u.Scheme, host, uint16(port)) {
		return &PolicyError{URL: u.String(), Why: "is not in capabilities.network.allow"}
	}
	return nil
}

func (g *guard) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := g.admit(r.URL); err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	r = r.Clone(r.Context())
	for _, h := range g.headers {
		r.Header.Set(h.Name, h.Value)
	}
	resp, err := g.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body = &bounded{rc: resp.Body, left: maxResponse}
	}
	return resp, nil
}

// bounded fails a read past its bound rather than truncating: a cut JSON
// document must not parse as something else.
type bounded struct {
	rc   io.ReadCloser
	left int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, errBodyTooLarge
		}
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), b.left)]
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *bounded) Close() error { return b.rc.Close() }

// originOf is u's scheme://host:port, lower-cased, the port explicit.
func originOf(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return strings.ToLower(u.Scheme) + "://" + host + ":" + portOf(u)
}

// portOf is u's port, or its scheme's.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
