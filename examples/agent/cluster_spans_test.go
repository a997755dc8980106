package agentexample

import (
	"net/http"
	"os/exec"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mur-go/mur/internal/testing/otlpreceiver"
)

// TestClusterGatewaySpans: with an OTLP collector in its environment the
// gateway gives each A2A request a server span, a child of the span the
// client's traceparent names (a root without one), with the task's id.
func TestClusterGatewaySpans(t *testing.T) {
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	e := setUp(t)
	r := otlpreceiver.StartHTTP(t)
	nc := startNATS(t, 3)
	nc.ensure(t)
	g := e.start(t, func(c *exec.Cmd) { c.Env = append(c.Env, "OTEL_EXPORTER_OTLP_ENDPOINT="+r.URL) },
		"gateway", "--nats", nc.urls, "--bind", "127.0.0.1:0")
	base := g.await(t, "a2a: url ") + "/agent"
	e.worker(t, nc.urls, nil)

	card, err := (&agentcard.Resolver{Client: http.DefaultClient}).Resolve(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: header{"Traceparent", "00-" + traceID + "-" + parentID + "-01"}}
	c, err := a2aclient.NewFromCard(t.Context(), card, a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(taskText(t)))})
	if err != nil {
		t.Fatal(err)
	}
	id := string(res.(*a2a.Task).ID)
	if _, err := client(t, base).GetTask(t.Context(), &a2a.GetTaskRequest{ID: a2a.TaskID(id)}); err != nil {
		t.Fatal(err)
	}

	// The batcher sends within a second; the test waits for what it expects.
	want := map[string]func(s otlpreceiver.Span) string{
		"a2a SendMessage": func(s otlpreceiver.Span) string {
			if s.TraceID != traceID || s.ParentSpanID != parentID {
				return "not a child of the client's span"
			}
			return ""
		},
		"a2a GetTask": func(s otlpreceiver.Span) string {
			if s.TraceID == traceID || s.ParentSpanID != "" {
				return "not a root of a trace of its own"
			}
			return ""
		},
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(want) > 0 {
		for _, s := range r.Spans() {
			check, ok := want[s.Name]
			if !ok {
				continue
			}
			problem := check(s)
			switch {
			case problem != "":
			case s.Kind != tracepb.Span_SPAN_KIND_SERVER:
				problem = "kind " + s.Kind.String()
			case s.Attrs["murmur.task.id"] != id || s.Attrs["gen_ai.agent.name"] != "agent" || s.Resource["service.name"] != "mur gateway":
				problem = "attributes"
			}
			if problem != "" {
				t.Fatalf("span %s: %s: %+v", s.Name, problem, s)
			}
			delete(want, s.Name)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector got no span %v in 30 s; it got %+v\ngateway:\n%s", want, r.Spans(), g.stderr.String())
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// header is a transport that sets one header on every request.
type header struct{ name, value string }

func (h header) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}
