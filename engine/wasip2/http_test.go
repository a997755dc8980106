package wasip2

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/policy"
)

const httpTypes = "wasi:http/types#"

// doRequest drives outgoing-handler the way a guest does and returns the
// status and body, or the error-code case name.
func doRequest(t *testing.T, h *host, c *Ctx, method uint32, target string, body []byte) (int, []byte, string) {
	t.Helper()
	u, _ := url.Parse(target)
	hdrs := h.call(t, c, httpTypes+"[constructor]fields")
	req := h.call(t, c, httpTypes+"[constructor]outgoing-request", hdrs)
	h.call(t, c, httpTypes+"[method]outgoing-request.set-method", req, wit.VariantValue{Case: method})
	h.call(t, c, httpTypes+"[method]outgoing-request.set-scheme", req, wit.Some(wit.VariantValue{Case: 0}))
	h.call(t, c, httpTypes+"[method]outgoing-request.set-authority", req, wit.Some(u.Host))
	h.call(t, c, httpTypes+"[method]outgoing-request.set-path-with-query", req, wit.Some(u.Path))
	var ob, os any
	if body != nil {
		ob = h.call(t, c, httpTypes+"[method]outgoing-request.body", req).(wit.ResultValue).Value
		os = h.call(t, c, httpTypes+"[method]outgoing-body.write", ob).(wit.ResultValue).Value
	}
	r := h.call(t, c, "wasi:http/outgoing-handler#handle", req, wit.None()).(wit.ResultValue)
	if r.Err {
		return 0, nil, httpErrorNames[r.Value.(wit.VariantValue).Case]
	}
	fut := r.Value
	if body != nil {
		for len(body) > 0 {
			n := min(len(body), 4096)
			if v := h.call(t, c, "wasi:io/streams#[method]output-stream.blocking-write-and-flush", os, body[:n]).(wit.ResultValue); v.Err {
				t.Fatalf("body write: %#v", v)
			}
			body = body[n:]
		}
		h.record["wasi:io/streams#[method]output-stream.check-write"](context.Background(), c, []any{os})
		h.call(t, c, httpTypes+"[static]outgoing-body.finish", ob, wit.None())
	}
	p := h.call(t, c, httpTypes+"[method]future-incoming-response.subscribe", fut)
	h.call(t, c, "wasi:io/poll#[method]pollable.block", p)
	got := h.call(t, c, httpTypes+"[method]future-incoming-response.get", fut).(wit.OptionValue)
	inner := got.Value.(wit.ResultValue).Value.(wit.ResultValue)
	if inner.Err {
		return 0, nil, httpErrorNames[inner.Value.(wit.VariantValue).Case]
	}
	resp := inner.Value
	status := h.call(t, c, httpTypes+"[method]incoming-response.status", resp).(uint16)
	ib := h.call(t, c, httpTypes+"[method]incoming-response.consume", resp).(wit.ResultValue).Value
	in := h.call(t, c, httpTypes+"[method]incoming-body.stream", ib).(wit.ResultValue).Value
	var out []byte
	for {
		v := h.call(t, c, "wasi:io/streams#[method]input-stream.blocking-read", in, uint64(65536)).(wit.ResultValue)
		if v.Err {
			break
		}
		out = append(out, v.Value.([]byte)...)
	}
	return int(status), out, ""
}

func TestHTTPRules(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		b, _ := io.ReadAll(r.Body)
		w.Write(b)
		w.Write([]byte(r.Method))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	h := testHost(t)
	ctxFor := func(entries ...string) *Ctx {
		rules, err := policy.ParseNetRules(entries)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCtx(Grants{Net: rules})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}

	// Allowed: a multi-megabyte body streams both ways.
	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<16)
	c := ctxFor("http://" + u.Host)
	status, body, errName := doRequest(t, h, c, 2, srv.URL+"/echo", big)
	if errName != "" || status != 200 || !bytes.Equal(body, append(big, "POST"...)) {
		t.Fatalf("allowed: status %d err %s body %d bytes", status, errName, len(body))
	}
	_, body, _ = doRequest(t, h, c, 0, srv.URL+"/", nil)
	if string(body) != "GET" {
		t.Fatalf("GET body %q", body)
	}
	before := hits.Load()

	for name, entries := range map[string][]string{
		"no rule":    nil,
		"other host": {"example.com"},
		"other port": {u.Hostname() + ":1"},
		"https only": {"https://" + u.Host},
		"name vs ip": {"localhost:" + u.Port()},
	} {
		_, _, errName := doRequest(t, h, ctxFor(entries...), 0, srv.URL+"/", nil)
		if errName != "HTTP-request-denied" {
			t.Errorf("%s: got %q, want HTTP-request-denied", name, errName)
		}
	}
	if hits.Load() != before {
		t.Fatal("the server saw a denied request")
	}
}

func TestHTTPConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.Listener.Addr().String()
	srv.Close()
	h := testHost(t)
	rules, _ := policy.ParseNetRules([]string{addr})
	c, _ := NewCtx(Grants{Net: rules})
	defer c.Close()
	_, _, errName := doRequest(t, h, c, 0, "http://"+addr+"/", nil)
	if errName != "connection-refused" {
		t.Fatalf("got %q", errName)
	}
}

func TestHTTPFirstByteTimeout(t *testing.T) {
	// The handler answers nothing until the client gives up or the test
	// ends (released before srv.Close, which waits for handlers); should the
	// timeout not work, it answers late instead of hanging the test.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	defer close(release)
	h := testHost(t)
	u, _ := url.Parse(srv.URL)
	rules, _ := policy.ParseNetRules([]string{u.Host})
	c, _ := NewCtx(Grants{Net: rules})
	defer c.Close()
	hdrs := h.call(t, c, httpTypes+"[constructor]fields")
	req := h.call(t, c, httpTypes+"[constructor]outgoing-request", hdrs)
	h.call(t, c, httpTypes+"[method]outgoing-request.set-authority", req, wit.Some(u.Host))
	opts := h.call(t, c, httpTypes+"[constructor]request-options")
	h.call(t, c, httpTypes+"[method]request-options.set-first-byte-timeout", opts, wit.Some(uint64(100*time.Millisecond)))
	fut := h.call(t, c, "wasi:http/outgoing-handler#handle", req, wit.Some(opts)).(wit.ResultValue).Value
	p := h.call(t, c, httpTypes+"[method]future-incoming-response.subscribe", fut)
	start := time.Now()
	h.call(t, c, "wasi:io/poll#[method]pollable.block", p)
	got := h.call(t, c, httpTypes+"[method]future-incoming-response.get", fut).(wit.OptionValue)
	inner := got.Value.(wit.ResultValue).Value.(wit.ResultValue)
	if !inner.Err || httpErrorNames[inner.Value.(wit.VariantValue).Case] != "HTTP-response-timeout" || time.Since(start) > time.Second {
		t.Fatalf("got %#v after %v", inner, time.Since(start))
	}
}
