//go:build !wasip1

package wasihttp

import (
	"bytes"
	"net/http"
	"strings"
)

// NewNet is a Doer over c for native tests: the same contract as the
// wasi:http client (no redirects followed, headers lower-cased).
func NewNet(c *http.Client) Doer {
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return netClient{&cc}
}

type netClient struct{ c *http.Client }

func (n netClient) Do(req *Request) (*Response, error) {
	r, err := http.NewRequest(req.Method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	for _, kv := range req.Header {
		r.Header.Add(kv[0], kv[1])
	}
	resp, err := n.c.Do(r)
	if err != nil {
		return nil, err
	}
	h := map[string][]string{}
	for k, v := range resp.Header {
		h[strings.ToLower(k)] = v
	}
	return &Response{Status: resp.StatusCode, Header: h, Body: resp.Body}, nil
}
