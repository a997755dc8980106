// Package wasihttp is the HTTP client the first-party drivers share. On
// wasip1 (the drivers' build) it speaks wasi:http/outgoing-handler through
// hand-written canonical-ABI imports (abi_wasip1.go); natively the same
// Doer interface is served by net/http, so the drivers' translation and
// streaming code is tested as plain Go against a real loopback server.
package wasihttp

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Request is one HTTP request. Header names keep their spelling; the host
// may add or replace headers (the credential gateway does).
type Request struct {
	Method string
	URL    string
	Header [][2]string
	Body   []byte
}

// Response is a response whose body is read as it arrives.
type Response struct {
	Status int
	// Header holds the response headers by lower-cased name.
	Header map[string][]string
	Body   io.ReadCloser
}

// Get is the first value of the header name (any case), or "".
func (r *Response) Get(name string) string {
	if v := r.Header[strings.ToLower(name)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Doer sends one request and does not follow redirects.
type Doer interface {
	Do(req *Request) (*Response, error)
}

// MaxRedirects bounds Follow.
const MaxRedirects = 5

// ErrTooManyRedirects ends a redirect chain longer than MaxRedirects.
var ErrTooManyRedirects = errors.New("too many redirects")

// Follow sends req through d and follows redirects as browsers do: 307 and
// 308 repeat the request, 301, 302 and 303 turn it into a GET without a
// body. Every hop is a new request the host judges on its own (network
// rules, credentials), so a redirect to another origin carries nothing the
// first request was given by the host.
func Follow(d Doer, req *Request) (*Response, error) {
	cur := *req
	for hop := 0; ; hop++ {
		resp, err := d.Do(&cur)
		if err != nil {
			return nil, err
		}
		switch resp.Status {
		case 301, 302, 303, 307, 308:
		default:
			return resp, nil
		}
		loc := resp.Get("location")
		if loc == "" {
			return resp, nil
		}
		resp.Body.Close()
		if hop >= MaxRedirects {
			return nil, ErrTooManyRedirects
		}
		base, err := url.Parse(cur.URL)
		if err != nil {
			return nil, fmt.Errorf("redirect from %q: %w", cur.URL, err)
		}
		next, err := base.Parse(loc)
		if err != nil {
			return nil, fmt.Errorf("redirect to %q: %w", loc, err)
		}
		cur.URL = next.String()
		if resp.Status != 307 && resp.Status != 308 {
			cur.Method, cur.Body = "GET", nil
		}
	}
}

// Error is a wasi:http error-code the host answered a request with.
type Error struct {
	Code   string // the case name, e.g. HTTP-request-denied
	Detail string // internal-error's message, if any
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return "wasi:http " + e.Code + ": " + e.Detail
	}
	return "wasi:http " + e.Code
}
