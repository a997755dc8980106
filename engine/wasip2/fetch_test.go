package wasip2_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/policy"
)

// fetchGuest is the componentize-js guest calling fetch (guests/js/fetch).
const fetchGuest = "fetch-js"

// fetchReq is the guest's input (see guests/js/fetch/fetch.js).
type fetchReq struct {
	URL     string `json:"url"`
	Method  string `json:"method,omitempty"`
	Body    string `json:"body,omitempty"`
	Repeat  []any  `json:"repeat,omitempty"`
	Stream  bool   `json:"stream,omitempty"`
	Count   int    `json:"count,omitempty"`
	Discard bool   `json:"discard,omitempty"`
}

// fetchResult is the part of the guest's tool-result the tests look at.
type fetchResult struct {
	status string // passed or error
	data   string
	meta   map[string]string
}

// wantBody checks a passed answer whose body was want; big bodies come
// back as a digest only.
func (r fetchResult) wantBody(t testing.TB, want string) {
	t.Helper()
	sum := sha256.Sum256([]byte(want))
	if r.status != "passed" || r.meta["len"] != strconv.Itoa(len(want)) || r.meta["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("want %d bytes with sha256 %x, got %s %v %.100q", len(want), sum, r.status, r.meta, r.data)
	}
	if len(want) <= 64<<10 && r.data != want {
		t.Fatalf("body %q, want %q", r.data, want)
	}
}

// fetcher is one instance of the fetch guest under a set of network rules.
type fetcher struct {
	f *component.Func
}

func newFetcher(t testing.TB, rules ...string) *fetcher {
	t.Helper()
	nr, err := policy.ParseNetRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	inst, _ := instantiate(t, fetchGuest, wasip2.Grants{Net: nr}, component.Limits{})
	f, err := inst.Func(runExport)
	if err != nil {
		t.Fatal(err)
	}
	return &fetcher{f: f}
}

func (g *fetcher) do(t testing.TB, r fetchReq) fetchResult {
	t.Helper()
	in, _ := json.Marshal(r)
	v, err := g.f.Call(context.Background(), []any{wit.Some(string(in)), wit.None()})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rec := v.([]any)
	res := fetchResult{status: []string{"passed", "failed", "error"}[rec[0].(uint32)], meta: map[string]string{}}
	if d := rec[2].(wit.OptionValue); d.Some {
		res.data = d.Value.(string)
	}
	for _, kv := range rec[5].([]any) {
		p := kv.([]any)
		res.meta[p[0].(string)] = p[1].(string)
	}
	return res
}

// echoServer answers with the request body followed by the method, or
// with a streamed 3 MiB body at /big. It counts the requests and the
// connections it sees.
func echoServer(t testing.TB) (srv *httptest.Server, hits, conns *atomic.Int32) {
	hits, conns = new(atomic.Int32), new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/big" {
			// A streamed multi-megabyte response: many writes, each flushed.
			chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
			for range 48 {
				w.Write(chunk)
				w.(http.Flusher).Flush()
			}
			return
		}
		// Full duplex: the echo streams back while the request body is
		// still arriving, so both directions are in flight at once.
		http.NewResponseController(w).EnableFullDuplex()
		if _, err := io.Copy(w, r.Body); err != nil {
			t.Errorf("server reading the request body: %v", err)
		}
		io.WriteString(w, r.Method)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, hits, conns
}

func TestFetchGuest(t *testing.T) {
	srv, hits, conns := echoServer(t)
	u, _ := url.Parse(srv.URL)
	g := newFetcher(t, "http://"+u.Host)

	t.Run("get", func(t *testing.T) {
		r := g.do(t, fetchReq{URL: srv.URL + "/"})
		if r.status != "passed" || r.data != "GET" || r.meta["status"] != "200" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("streamed response", func(t *testing.T) {
		r := g.do(t, fetchReq{URL: srv.URL + "/big"})
		r.wantBody(t, strings.Repeat("0123456789abcdef", 4096*48))
		t.Logf("3 MiB response read in %s chunks", r.meta["chunks"])
	})
	chunk := strings.Repeat("abcdefghijklmnop", 4096)
	for _, stream := range []bool{false, true} {
		name := map[bool]string{false: "post", true: "streamed post"}[stream]
		t.Run(name, func(t *testing.T) {
			r := g.do(t, fetchReq{URL: srv.URL + "/echo", Method: "POST", Repeat: []any{chunk, 48}, Stream: stream})
			r.wantBody(t, strings.Repeat(chunk, 48)+"POST")
		})
	}

	hitsBefore, connsBefore := hits.Load(), conns.Load()
	for name, rules := range map[string][]string{
		"no rule":    nil,
		"other host": {"example.com"},
		"other port": {u.Hostname() + ":1"},
	} {
		t.Run("denied "+name, func(t *testing.T) {
			r := newFetcher(t, rules...).do(t, fetchReq{URL: srv.URL + "/"})
			if r.status != "error" {
				t.Fatalf("%+v", r)
			}
			t.Logf("guest saw: %s", r.data)
		})
	}
	// The rules are checked before any connection: the server saw nothing.
	if h, c := hits.Load()-hitsBefore, conns.Load()-connsBefore; h != 0 || c != 0 {
		t.Fatalf("the server saw %d denied requests on %d new connections", h, c)
	}
}
