package httpbound

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

var testLimits = Limits{MaxBody: 64 << 10, SmallBody: 1 << 10, BodyBudget: 128 << 10, BodyTimeout: 200 * time.Millisecond}

func post(size int, body string) string {
	return "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(size) + "\r\n\r\n" + body
}

// chunked is a POST whose body is sent in chunks of 4 KiB.
func chunked(body string) string {
	var b strings.Builder
	b.WriteString("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
	for len(body) > 0 {
		n := min(len(body), 4<<10)
		fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
		body = body[n:]
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}

// Each body either reaches the handler whole or is refused with the status
// that says why: too large as soon as that is known (before a byte is
// read when its length says so), too slow once the deadline passed.
func TestBodyBounds(t *testing.T) {
	_, addr := serve(t, testLimits, echo)
	big := strings.Repeat("b", 60<<10)
	tests := []struct {
		name, request, want string
		status              int
		closed              bool // the connection ends after the reply
		atLeast             time.Duration
	}{
		{name: "small", request: post(5, "hello"), status: 200, want: "hello"},
		{name: "large, within the budget", request: post(len(big), big), status: 200, want: big},
		{name: "chunked", request: chunked(big), status: 200, want: big},
		{name: "announced too large, nothing sent", request: post(64<<10+1, ""), status: 413, closed: true},
		{name: "chunked past the bound", request: chunked(big + big), status: 413, closed: true},
		{name: "stalled", request: post(100, "only ten b"), status: 408, closed: true, atLeast: testLimits.BodyTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, addr, "127.0.0.1")
			start := time.Now()
			c.send(t, tc.request)
			status, body, err := c.response()
			took := time.Since(start)
			if err != nil || status != tc.status || (tc.want != "" && body != tc.want) {
				t.Fatalf("HTTP %d, %d bytes, %v; want %d", status, len(body), err, tc.status)
			}
			if took < tc.atLeast {
				t.Errorf("answered after %v, before the %v deadline", took, tc.atLeast)
			}
			if tc.closed {
				if _, err := c.r.ReadByte(); !errors.Is(err, io.EOF) {
					t.Errorf("the connection is still open after the refusal: %v", err)
				}
			}
		})
	}
}

// Large bodies being received share the budget: while two stalled ones
// hold all of it, a third large one is answered 503 at once, a small one
// is still served, and once a held body is done the budget serves again.
func TestBudgetIsSharedBySlowLargeBodies(t *testing.T) {
	_, addr := serve(t, testLimits, echo)
	var held []*client
	for range 2 {
		c := dial(t, addr, "127.0.0.1")
		c.send(t, "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 65536\r\n\r\n")
		c.continued(t)
		held = append(held, c)
	}
	big := strings.Repeat("c", 2<<10)
	c := dial(t, addr, "127.0.0.1")
	c.send(t, post(len(big), big))
	if status, _, err := c.response(); status != http.StatusServiceUnavailable {
		t.Fatalf("a large body while the budget is held: HTTP %d %v, want 503", status, err)
	}
	small := dial(t, addr, "127.0.0.1")
	small.send(t, post(5, "small"))
	if status, body, err := small.response(); status != 200 || body != "small" {
		t.Fatalf("a small body while the budget is held: HTTP %d %q %v, want it served", status, body, err)
	}
	held[0].send(t, strings.Repeat("h", 65536))
	if status, _, err := held[0].response(); status != 200 {
		t.Fatalf("the held body, completed: HTTP %d %v", status, err)
	}
	again := dial(t, addr, "127.0.0.1")
	again.send(t, post(len(big), big))
	if status, body, err := again.response(); status != 200 || body != big {
		t.Fatalf("a large body once the budget is back: HTTP %d %v", status, err)
	}
}

// The body deadline bounds reading the body, never the response: a
// handler that answers long after it has passed still has a live request.
func TestDeadlineEndsWithTheBody(t *testing.T) {
	l := testLimits
	l.BodyTimeout = 50 * time.Millisecond
	_, addr := serve(t, l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			t.Error(err)
		}
		select {
		case <-time.After(6 * l.BodyTimeout):
			_, _ = io.WriteString(w, "alive")
		case <-r.Context().Done():
			_, _ = io.WriteString(w, "cancelled")
		}
	}))
	c := dial(t, addr, "127.0.0.1")
	c.send(t, post(5, "hello"))
	if status, body, err := c.response(); status != 200 || body != "alive" {
		t.Fatalf("HTTP %d %q %v, want the request alive past the body deadline", status, body, err)
	}
}
