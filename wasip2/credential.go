package wasip2

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Credential is a secret the host attaches to a guest's outgoing HTTP
// requests so that the guest never holds it: the guest sends its request
// without the secret, and the host sets it on the way out, only when the
// request's origin (scheme, host, port) is Origin. A redirect the guest
// follows, or any request to another origin, is a new request judged on
// its own origin, so it carries nothing. The secret is also redacted from
// every response the guest reads (headers and body), so a provider that
// echoes it back cannot hand it to the guest.
type Credential struct {
	// Origin is where the secret may go, as OriginOf returns it.
	Origin string
	// Header, when set, is the header the host sets to Prefix+Secret on
	// every request to Origin, replacing whatever value the guest gave.
	Header, Prefix string
	// Placeholder, when set, is replaced by Secret wherever it occurs in a
	// header value of a request to Origin: the stand-in a driver written
	// to read its key from the environment sends instead of the key.
	Placeholder string
	// Secret is the credential itself.
	Secret string
}

// Redacted is what the secret reads as in responses.
const Redacted = "[REDACTED]"

// OriginOf is rawURL's origin, "scheme://host:port" with the scheme and
// host lower-cased, an IPv6 host in brackets and the port always given.
func OriginOf(rawURL string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", fmt.Errorf("credential origin: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Hostname() == "" {
		return "", fmt.Errorf("credential origin %q: want an http or https URL with a host", rawURL)
	}
	port := defaultPort(scheme)
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return "", fmt.Errorf("credential origin %q: invalid port", rawURL)
		}
		port = uint16(n)
	}
	return origin(scheme, strings.ToLower(u.Hostname()), port), nil
}

func origin(scheme, host string, port uint16) string {
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + strconv.Itoa(int(port))
}

// apply puts the secret on req if its origin is the credential's.
func (c *Credential) apply(req *http.Request, reqOrigin string) {
	if c == nil || c.Secret == "" || reqOrigin != c.Origin {
		return
	}
	if c.Placeholder != "" {
		for k, vs := range req.Header {
			for i, v := range vs {
				vs[i] = strings.ReplaceAll(v, c.Placeholder, c.Secret)
			}
			req.Header[k] = vs
		}
	}
	if c.Header != "" {
		req.Header.Set(c.Header, c.Prefix+c.Secret)
	}
}

// redactHeader replaces the secret in every response header value.
func (c *Credential) redactHeader(h http.Header) {
	if c == nil || c.Secret == "" {
		return
	}
	for k, vs := range h {
		for i, v := range vs {
			vs[i] = strings.ReplaceAll(v, c.Secret, Redacted)
		}
		h[k] = vs
	}
}

// redactBody wraps a response body so the secret never reaches the guest,
// even split across reads.
func (c *Credential) redactBody(body io.ReadCloser) io.ReadCloser {
	if c == nil || c.Secret == "" {
		return body
	}
	return &redactReader{src: body, secret: []byte(c.Secret)}
}

// redactReader holds back the last len(secret)-1 bytes of what it has
// read until more arrive, so an occurrence spanning two reads is caught.
type redactReader struct {
	src    io.ReadCloser
	secret []byte
	carry  []byte // read, not yet released
	out    []byte // released, not yet returned
	err    error
}

func (r *redactReader) Read(p []byte) (int, error) {
	buf := make([]byte, 32<<10)
	for len(r.out) == 0 && r.err == nil {
		n, err := r.src.Read(buf)
		data := bytes.ReplaceAll(append(r.carry, buf[:n]...), r.secret, []byte(Redacted))
		r.err = err
		keep := 0
		if err == nil {
			keep = min(len(r.secret)-1, len(data))
		}
		r.out = append(r.out, data[:len(data)-keep]...)
		r.carry = append([]byte(nil), data[len(data)-keep:]...)
	}
	if len(r.out) == 0 {
		return 0, r.err
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}

func (r *redactReader) Close() error { return r.src.Close() }
