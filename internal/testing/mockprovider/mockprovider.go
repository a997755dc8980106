// Package mockprovider is a loopback model provider for tests: a real
// HTTP server that answers each request with the next scripted Reply and
// records what it was sent (method, path, headers, body), so tests can
// drive the real driver components and check what reached the wire.
// It speaks whatever the replies say; openai.go and anthropic.go build
// replies in each API's shape, whole or as server-sent events.
package mockprovider

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Reply is one scripted answer.
type Reply struct {
	Status int // 0 means 200
	Header map[string]string
	Body   string
	// Events, when set, are sent as server-sent events (each a "data:"
	// payload, or a full "event: …\ndata: …" frame if it has a newline),
	// flushed one by one; Body is then ignored.
	Events []string
	// Redirect, when set, answers 307 to this URL.
	Redirect string
	// Gzip compresses the answer (Content-Encoding: gzip) when the
	// request accepts gzip, as most providers do; events are flushed
	// through the compressor one by one.
	Gzip bool
}

// Recorded is one request as the server saw it.
type Recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// Server is a running mock provider.
type Server struct {
	URL string

	mu       sync.Mutex
	replies  []Reply
	fallback Reply
	routes   map[string]Reply
	got      []Recorded
}

// Route answers every request for path with r, outside the script.
func (s *Server) Route(path string, r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.routes == nil {
		s.routes = map[string]Reply{}
	}
	s.routes[path] = r
}

// New starts a server answering with replies in order, then with
// fallback (a 500 naming the overrun unless SetFallback changes it).
// It stops when the test ends.
func New(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	s := &Server{replies: replies, fallback: Reply{Status: 500, Body: `{"error":{"message":"mock provider: no more scripted replies"}}`}}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// SetFallback answers every request past the script with r.
func (s *Server) SetFallback(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = r
}

// Requests is what the server received so far, in order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.got...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.got = append(s.got, Recorded{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body})
	reply, routed := s.routes[r.URL.Path]
	switch {
	case routed:
	case len(s.replies) > 0:
		reply, s.replies = s.replies[0], s.replies[1:]
	default:
		reply = s.fallback
	}
	s.mu.Unlock()
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	if reply.Redirect != "" {
		http.Redirect(w, r, reply.Redirect, http.StatusTemporaryRedirect)
		return
	}
	status := reply.Status
	if status == 0 {
		status = 200
	}
	var out io.Writer = w
	flush := func() {}
	if f, ok := w.(http.Flusher); ok {
		flush = f.Flush
	}
	if reply.Gzip && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		gz := gzip.NewWriter(w)
		defer gz.Close()
		w.Header().Set("Content-Encoding", "gzip")
		flushConn := flush
		out, flush = gz, func() { gz.Flush(); flushConn() }
	}
	if reply.Events == nil {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		if out == io.Writer(w) {
			w.Header().Set("Content-Length", strconv.Itoa(len(reply.Body)))
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(out, reply.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(status)
	for _, ev := range reply.Events {
		frame := "data: " + ev + "\n\n"
		if hasNewline(ev) {
			frame = ev + "\n\n"
		}
		if _, err := io.WriteString(out, frame); err != nil {
			return
		}
		flush()
	}
}

func hasNewline(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return true
		}
	}
	return false
}
