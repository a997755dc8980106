package agentexample

import (
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/mur-go/mur/internal/testing/otlpreceiver"
)

// TestClusterWorkerSpansJoinTheTrace: a task sent through a gateway with
// a traceparent header runs on a worker whose session's spans are in
// the caller's trace: the invoke_agent span is the caller's span's
// child, the model and tool spans inside it. The capsule's sessions are
// long-lived (queue+sleep): the worker drains, which ends them and
// flushes their spans.
func TestClusterWorkerSpansJoinTheTrace(t *testing.T) {
	e := setUp(t)
	r := otlpreceiver.StartHTTP(t)
	e.withOtelEndpoint(t, r.URL)
	e.withManifestTail(t, queueSleep)
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	w, _ := e.worker(t, nc.urls, nil)
	c := tracedClient(t, base, caller)
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(taskText(t)))})
	if err != nil {
		t.Fatal(err)
	}
	if task := res.(*a2a.Task); task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), finalAnswer(t)) {
		t.Fatalf("the task: %s", describe(task))
	}
	w.signal(t, syscall.SIGTERM)
	if code := w.exit(t); code != 0 {
		t.Fatalf("the worker exited %d\n%s", code, w.stderr.String())
	}
	spans := r.Spans()
	task := only(t, spans, "invoke_agent agent")
	if task.TraceID != callerTrace || task.ParentSpanID != callerSpan {
		t.Errorf("the worker's task span is not the caller's span's child: trace %s parent %s", task.TraceID, task.ParentSpanID)
	}
	hasAttrs(t, task, map[string]any{"murmur.task.source": "a2a", "murmur.task.exit_status": "ok"})
	chats := otlpreceiver.Named(spans, "chat scripted")
	if len(chats) != 2 {
		t.Fatalf("%d chat spans, want 2: %v", len(chats), names(spans))
	}
	for _, ch := range chats {
		inTask(t, ch, task)
	}
	inTask(t, only(t, spans, "execute_tool word-stats"), task)
}

// tracedClient is client(t, base) sending traceparent on every request,
// as a caller within a trace does.
func tracedClient(t *testing.T, base, traceparent string) *a2aclient.Client {
	t.Helper()
	hc := &http.Client{Transport: withHeader{"traceparent", traceparent}}
	card, err := (&agentcard.Resolver{Client: hc}).Resolve(t.Context(), base)
	if err != nil {
		t.Fatalf("resolving the card at %s: %v", base, err)
	}
	c, err := a2aclient.NewFromCard(t.Context(), card, a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Destroy() })
	return c
}

type withHeader struct{ name, value string }

func (h withHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(req)
}
