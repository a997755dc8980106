package github

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/store/registry"
)

const (
	// APIBaseEnv overrides the API base URL, as in Murmur (tests point it
	// at a loopback stand-in).
	APIBaseEnv = "MUR_GITHUB_API_BASE"
	// TokenEnv is the token Murmur sends when a source configures none.
	TokenEnv = "GITHUB_TOKEN"
	// DefaultAPIBase is GitHub's REST API.
	DefaultAPIBase = "https://api.github.com"
	// DefaultRepo is Murmur's default source ("official"), where bare
	// names resolve.
	DefaultRepo = "murmur-nexus/default-artifacts"

	// maxReleaseBytes caps a release's JSON (GitHub allows 1000 assets of
	// about 1 KiB of JSON each).
	maxReleaseBytes = 8 << 20
	// maxErrorBytes caps the body of an error answer read for its message.
	maxErrorBytes = 64 << 10
	// maxRedirects bounds an asset download's redirects (GitHub answers
	// with one, to its CDN).
	maxRedirects = 5
	// apiTimeout bounds a JSON request, as Murmur's 30 s agent does;
	// assetTimeout a download, which may be large.
	apiTimeout   = 30 * time.Second
	assetTimeout = 10 * time.Minute
)

// Client talks to one GitHub API base.
type Client struct {
	base   *url.URL
	origin string
	http   *http.Client
	log    *slog.Logger
	getenv func(string) string
}

// Options configure Open.
type Options struct {
	// Getenv reads MUR_GITHUB_API_BASE, GITHUB_TOKEN and the
	// decompression ceiling; nil reads nothing.
	Getenv func(string) string
	Log    *slog.Logger
}

// Open returns a client for the API base MUR_GITHUB_API_BASE names
// (default https://api.github.com) with GITHUB_TOKEN, if set. Plain HTTP
// is accepted only for a loopback host.
func Open(o Options) (*Client, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	raw := strings.TrimRight(strings.TrimSpace(getenv(APIBaseEnv)), "/")
	if raw == "" {
		raw = DefaultAPIBase
	}
	base, err := parseBase(raw)
	if err != nil {
		return nil, &diag.Error{Code: registry.CodeIO, Err: registry.ErrInvalidInput,
			Msg:  fmt.Sprintf("invalid %s '%s': %v", APIBaseEnv, raw, err),
			Hint: "set " + APIBaseEnv + " to an https:// URL (http:// only on loopback), or unset it for " + DefaultAPIBase}
	}
	c := &Client{base: base, origin: originOf(base), log: log, getenv: getenv}
	t := &auth{origin: c.origin, token: strings.TrimSpace(getenv(TokenEnv)), next: http.DefaultTransport}
	c.http = &http.Client{Transport: t, CheckRedirect: checkRedirect}
	return c, nil
}

// parseBase accepts http(s)://host[:port][/path] with nothing else.
func parseBase(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, err
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, errors.New("the scheme must be https or http")
	case u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return nil, errors.New("expected scheme://host[:port][/path] and nothing else")
	case u.Scheme == "http" && !loopback(u.Hostname()):
		return nil, errors.New("plain http is accepted only for a loopback host")
	}
	return u, nil
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// originOf is scheme://host:port, the port always spelled out, so that
// https://h and https://h:443 are one origin and h:1 and h:2 are two.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// auth adds the token to requests for the API base's origin only. The
// token is never a header of the request the client builds, so no
// redirect can carry it elsewhere: each hop is judged by its own URL.
type auth struct {
	origin, token string
	next          http.RoundTripper
}

func (a *auth) RoundTrip(r *http.Request) (*http.Response, error) {
	if a.token == "" || originOf(r.URL) != a.origin {
		return a.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return a.next.RoundTrip(r)
}

// checkRedirect bounds redirects and refuses a step down from https to
// plain http off loopback.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("more than %d redirects", maxRedirects)
	}
	if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" && !loopback(req.URL.Hostname()) {
		return fmt.Errorf("refused a redirect from https to %s", req.URL.Redacted())
	}
	return nil
}

// errNotFound is a 404 from the API.
var errNotFound = errors.New("not found")

// get fetches the path made of segments below the API base with accept,
// reading at most limit bytes of the answer (more is an error). Each
// segment is escaped, so a tag cannot add segments of its own.
func (c *Client) get(ctx context.Context, segments []string, accept string, limit int64, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	u := *c.base
	raw := strings.TrimRight(c.base.EscapedPath(), "/")
	for _, s := range segments {
		raw += "/" + url.PathEscape(s)
	}
	var err error
	if u.Path, err = url.PathUnescape(raw); err != nil {
		return nil, err
	}
	u.RawPath = raw
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "mur-go")
	req.Header.Set("Accept", accept)
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, errNotFound
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, statusError(resp)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &tooLarge{limit}
	}
	return data, nil
}

// tooLarge is an answer longer than it may be.
type tooLarge struct{ limit int64 }

func (e *tooLarge) Error() string { return fmt.Sprintf("the answer is larger than %d bytes", e.limit) }

// statusError quotes GitHub's "message", if the body has one.
func statusError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
	msg := decodeMessage(body)
	if msg == "" {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return fmt.Errorf("HTTP %d: %q", resp.StatusCode, msg)
}
