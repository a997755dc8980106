package a2a_test

import (
	"context"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/remote/a2a"
)

func TestParseTraceparent(t *testing.T) {
	const good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	tests := []struct {
		in string
		ok bool
	}{
		{good, true},
		{"  " + good + " ", true},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future", true},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", false}, // version 00 has four fields
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false},
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01", false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", false},
		{"zz-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false},
		{"", false},
	}
	for _, tt := range tests {
		tc, ok := a2a.ParseTraceparent(tt.in)
		if ok != tt.ok {
			t.Errorf("ParseTraceparent(%q) ok = %v, want %v", tt.in, ok, tt.ok)
		}
		if ok && tt.in == good && tc.String() != good {
			t.Errorf("round trip: %q", tc.String())
		}
	}
}

func TestTraceFromEnv(t *testing.T) {
	const caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == a2a.TraceEnv {
				return v
			}
			return ""
		}
	}
	joined := a2a.TraceFromEnv(env(caller))
	if joined.TraceIDString() != "4bf92f3577b34da6a3ce929d0e0e4736" || strings.Contains(joined.String(), "00f067aa0ba902b7") {
		t.Fatalf("joined %s: want the caller's trace id and a span of its own", joined)
	}
	a, b := a2a.TraceFromEnv(env("garbage")), a2a.TraceFromEnv(nil)
	if !a.Valid() || !b.Valid() || a.TraceID == b.TraceID || a.TraceIDString() == joined.TraceIDString() {
		t.Fatalf("fresh traces %s %s: want two new trace ids", a, b)
	}
}

// mur send puts each send in a trace: the agent sees the caller's trace
// id on every request it gets, and the A2A task records the header.
func TestOneShotSendsTheTrace(t *testing.T) {
	upstream, ran := ours(t)
	f := newFront(t, upstream, nil)
	caller, _ := a2a.ParseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	tc := caller.Child()
	if _, err := (a2a.OneShot{Trace: tc}).Send(t.Context(), f.srv.URL, "hi"); err != nil {
		t.Fatal(err)
	}
	task := <-ran
	if task.Traceparent != tc.String() {
		t.Fatalf("the task got traceparent %q, want %q", task.Traceparent, tc)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.log {
		if s.traceparent != tc.String() {
			t.Fatalf("%s went with traceparent %q, want %q", s.path, s.traceparent, tc)
		}
	}
}

// A trace in ctx (a task's) wins over the client's own.
func TestSendTraceFromContext(t *testing.T) {
	peer := newPeer(t, false, submitted)
	own, task := a2a.NewTrace(), a2a.NewTrace()
	var recs []a2a.SendRecord
	c := &a2a.Client{Net: rules(t, peer.srv.URL), Trace: own, OnSend: func(r a2a.SendRecord) { recs = append(recs, r) }}
	if _, err := c.Send(a2a.WithTrace(context.Background(), task), peer.srv.URL, a2a.Message{MessageID: "m"}); err != nil {
		t.Fatal(err)
	}
	if got := peer.headers[0].Get("traceparent"); got != task.String() || recs[0].Traceparent != task.String() {
		t.Fatalf("sent %q, recorded %q; want %q", got, recs[0].Traceparent, task)
	}
}

// An https agent is verified against the roots the transport trusts; an
// untrusted certificate fails with an error that says so.
func TestOneShotTLS(t *testing.T) {
	upstream, _ := ours(t)
	f := newFront(t, upstream, nil)
	tlsFront := httptest.NewTLSServer(f.srv.Config.Handler)
	t.Cleanup(tlsFront.Close)
	roots := x509.NewCertPool()
	roots.AddCert(tlsFront.Certificate())
	trusted := &http.Transport{TLSClientConfig: tlsFront.Client().Transport.(*http.Transport).TLSClientConfig.Clone()}
	trusted.TLSClientConfig.RootCAs = roots
	// The card the front serves names the plain front; the agent is reached
	// over TLS for the card and over whatever the card says after.
	if _, err := (a2a.OneShot{Transport: trusted}).Send(t.Context(), tlsFront.URL, "hi"); err != nil {
		t.Fatalf("trusted CA: %v", err)
	}
	_, err := a2a.OneShot{}.Send(t.Context(), tlsFront.URL, "hi")
	if err == nil || !strings.Contains(err.Error(), "authority this system does not trust") {
		t.Fatalf("untrusted certificate: %v", err)
	}
}
