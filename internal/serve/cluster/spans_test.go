package cluster

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/natstest"
)

// TestJobCarriesTheRequestSpan: a task's job carries the context of the
// gateway's span of the request that queued it, so the worker's spans
// of the task are its children.
func TestJobCarriesTheRequestSpan(t *testing.T) {
	c := natstest.Start(t, 1)
	st := c.Ensure(t)
	conn := natstest.Connect(t, c.URLs)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
	g := &gateway{o: Options{Conn: conn, Stores: st}, log: slog.Default()}
	h := &traced{RequestHandler: &handler{g: g, name: "agent"}, tracer: tp.Tracer("test"), capsule: "agent"}

	res, err := h.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi")),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	ended := rec.Ended()
	if len(ended) != 1 || ended[0].Name() != "a2a SendMessage" {
		t.Fatalf("spans %v, want one a2a SendMessage", ended)
	}
	sc := ended[0].SpanContext()
	s, err := conn.JS.Stream(t.Context(), queue.TasksStream)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.GetLastMsgForSubject(t.Context(), queue.JobSubject("agent"))
	if err != nil {
		t.Fatal(err)
	}
	var job queue.Job
	if err := json.Unmarshal(m.Data, &job); err != nil {
		t.Fatal(err)
	}
	want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
	if job.TaskID != string(res.(*a2a.Task).ID) || job.Traceparent != want {
		t.Errorf("the job of task %s carries traceparent %q, want the request span's %q", job.TaskID, job.Traceparent, want)
	}
	if strings.Contains(job.Traceparent, "0000000000000000") {
		t.Errorf("an invalid traceparent: %q", job.Traceparent)
	}
}
