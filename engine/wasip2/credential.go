package wasip2

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Credential is a secret the host attaches to a guest's outgoing HTTP
// requests so that the guest never holds it: the guest sends its request
// without the secret, and the host sets it on the way out, only when the
// request's origin (scheme, host, port) is Origin. A redirect the guest
// follows, or any request to another origin, is a new request judged on
// its own origin, so it carries nothing. Every response the store reads,
// from any origin, is read as the host shaped it (credential_shape.go)
// and has every fragment of the secret redacted from its headers and its
// decoded body (credential_redact.go), so a provider that echoes the key
// back cannot hand it, or a usable part of it, to the guest.
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

	frag struct {
		once sync.Once
		f    *fragments
	}
}

// fragments is the secret's fragment set, made once; nil when there is
// no secret to keep.
func (c *Credential) fragments() *fragments {
	if c == nil || c.Secret == "" {
		return nil
	}
	c.frag.once.Do(func() { c.frag.f = newFragments(c.Secret) })
	return c.frag.f
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
