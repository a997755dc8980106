package a2a

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects bounds the redirects one request follows; each hop passes
// the same checks as the first request.
const maxRedirects = 5

// PolicyError is a request capabilities.network.allow does not admit: the
// peer itself, an endpoint its agent card named, or a redirect.
type PolicyError struct{ URL string }

func (e *PolicyError) Error() string {
	return fmt.Sprintf("network policy: '%s' not in capabilities.network.allow", e.URL)
}

// errNotServed is a plain (non-JSON) 404, 405 or 501 answer: nothing
// serves that protocol binding at that URL, so the request was not taken.
var errNotServed = errors.New("nothing serves A2A there")

// notServedError says which URL answered how.
type notServedError struct {
	url    string
	status int
}

func (e *notServedError) Error() string {
	return fmt.Sprintf("%s answered HTTP %d: %v", e.url, e.status, errNotServed)
}
func (e *notServedError) Unwrap() error { return errNotServed }

// errBodyTooLarge is a response past the client's bound.
var errBodyTooLarge = errors.New("the response is larger than the client accepts")

// guard is the RoundTripper under every request this package's clients
// make, the card fetch, each endpoint and every redirect hop alike, so no
// request can skip a check: the network policy (when there is one), the
// bearer token only to the peer's own origin, the traceparent, and a bound
// on every response that is not an event stream.
type guard struct {
	// admit, if set, refuses a URL the policy does not admit.
	admit func(*url.URL) error
	// origin is the peer's scheme://host:port; only requests to it carry
	// the token, so a redirect elsewhere never learns it.
	origin string
	token  string
	next   http.RoundTripper
	// maxBody bounds a non-stream response (0: unbounded).
	maxBody int64
}

func (g *guard) RoundTrip(r *http.Request) (*http.Response, error) {
	if g.admit != nil {
		if err := g.admit(r.URL); err != nil {
			return nil, err
		}
	}
	r = r.Clone(r.Context())
	if tc, ok := TraceFrom(r.Context()); ok {
		r.Header.Set("traceparent", tc.String())
	}
	if g.token != "" && originOf(r.URL) == g.origin {
		r.Header.Set("Authorization", "Bearer "+g.token)
	}
	next := g.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch resp.StatusCode {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		// A JSON body is the binding's own error (REST's task not found);
		// anything else is a route that does not exist.
		if mt != "application/json" && r.Method == http.MethodPost {
			resp.Body.Close()
			return nil, &notServedError{url: r.URL.String(), status: resp.StatusCode}
		}
	}
	if g.maxBody > 0 && mt != "text/event-stream" {
		resp.Body = &boundedBody{rc: resp.Body, left: g.maxBody}
	}
	return resp, nil
}

// boundedBody fails a read past its bound rather than truncating: a cut
// JSON document must not parse as something else.
type boundedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, errBodyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

// Close drains a little of what is left first, so the connection can
// carry the next request of the same send (and its name is not looked up
// again).
func (b *boundedBody) Close() error {
	_, _ = io.CopyN(io.Discard, b.rc, 4<<10)
	return b.rc.Close()
}

// newHTTPClient is the client every request goes through: g over next,
// redirects followed only a few hops (each hop through g again).
func newHTTPClient(g *guard) *http.Client {
	return &http.Client{
		Transport: g,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			return nil
		},
	}
}

// originOf is u's scheme://host:port, the port explicit.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = "80"
		if scheme == "https" {
			port = "443"
		}
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port
}

// tlsProblem explains a certificate failure inside err, or returns "".
func tlsProblem(err error) string {
	var (
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		verify   *tls.CertificateVerificationError
	)
	switch {
	case errors.As(err, &hostname):
		return fmt.Sprintf("its TLS certificate is not valid for %s", hostname.Host)
	case errors.As(err, &unknown):
		return "its TLS certificate is signed by an authority this system does not trust (peers are verified against the system's roots; SSL_CERT_FILE or SSL_CERT_DIR add one)"
	case errors.As(err, &invalid):
		return "its TLS certificate is not valid: " + invalid.Error()
	case errors.As(err, &verify):
		return "its TLS certificate failed verification"
	}
	return ""
}

// connectError words a failure to reach peer, naming a certificate
// problem when that was it.
func connectError(peer string, err error) error {
	if p := tlsProblem(err); p != "" {
		return fmt.Errorf("failed to connect to %s: %s: %w", peer, p, err)
	}
	return fmt.Errorf("failed to connect to %s: %w", peer, err)
}

// withDefaultTrace returns ctx carrying tc unless ctx already carries a
// trace (or tc is none).
func withDefaultTrace(ctx context.Context, tc TraceContext) context.Context {
	if _, ok := TraceFrom(ctx); ok || !tc.Valid() {
		return ctx
	}
	return WithTrace(ctx, tc)
}
