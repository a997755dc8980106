package cluster

import (
	"context"
	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	server "github.com/mur-go/mur/internal/serve/a2a"
)

// traced gives each A2A request a capsule's front door hands the
// handler a server span, a child of the client's traceparent (else a
// root). A task's job carries the span's context (jobTraceparent), so
// the worker's spans of it nest under the request that queued it. The
// spans carry names and ids only, never a message's text.
type traced struct {
	a2asrv.RequestHandler
	tracer  trace.Tracer
	capsule string
}

func (t *traced) start(ctx context.Context, method string) (context.Context, trace.Span) {
	parent := ctx
	if tp := server.Traceparent(ctx); tp != "" {
		parent = propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": tp})
	}
	return t.tracer.Start(parent, "a2a "+method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(semconv.RPCMethod(method), semconv.GenAIAgentName(t.capsule)))
}

// end ends span with what the request came to: the task it named or
// made (zero when none), and its error.
func end(span trace.Span, task a2a.TaskInfo, err error) {
	if task.TaskID != "" {
		span.SetAttributes(attribute.String("murmur.task.id", string(task.TaskID)))
	}
	if task.ContextID != "" {
		span.SetAttributes(semconv.GenAIConversationID(task.ContextID))
	}
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// jobTraceparent is the trace context a queued task's job carries: the
// request's span when it is recorded, else the client's traceparent.
func jobTraceparent(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() && sc.IsSampled() {
		c := propagation.MapCarrier{}
		propagation.TraceContext{}.Inject(ctx, c)
		return c["traceparent"]
	}
	return server.Traceparent(ctx)
}

func (t *traced) GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	ctx, span := t.start(ctx, "GetTask")
	task, err := t.RequestHandler.GetTask(ctx, req)
	info := infoOf(task)
	if info.TaskID == "" && req != nil {
		info.TaskID = req.ID
	}
	end(span, info, err)
	return task, err
}

func (t *traced) ListTasks(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	ctx, span := t.start(ctx, "ListTasks")
	resp, err := t.RequestHandler.ListTasks(ctx, req)
	end(span, a2a.TaskInfo{}, err)
	return resp, err
}

func (t *traced) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	ctx, span := t.start(ctx, "CancelTask")
	task, err := t.RequestHandler.CancelTask(ctx, req)
	info := infoOf(task)
	if info.TaskID == "" && req != nil {
		info.TaskID = req.ID
	}
	end(span, info, err)
	return task, err
}

func (t *traced) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	ctx, span := t.start(ctx, "SendMessage")
	res, err := t.RequestHandler.SendMessage(ctx, req)
	task, _ := res.(*a2a.Task)
	end(span, infoOf(task), err)
	return res, err
}

func (t *traced) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return t.stream(ctx, "SendStreamingMessage", a2a.TaskInfo{}, func(ctx context.Context) iter.Seq2[a2a.Event, error] {
		return t.RequestHandler.SendStreamingMessage(ctx, req)
	})
}

func (t *traced) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	var info a2a.TaskInfo
	if req != nil {
		info.TaskID = req.ID
	}
	return t.stream(ctx, "SubscribeToTask", info, func(ctx context.Context) iter.Seq2[a2a.Event, error] {
		return t.RequestHandler.SubscribeToTask(ctx, req)
	})
}

// stream spans a streaming request from its start to its last event.
func (t *traced) stream(ctx context.Context, method string, info a2a.TaskInfo, events func(context.Context) iter.Seq2[a2a.Event, error]) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		ctx, span := t.start(ctx, method)
		var failed error
		defer func() { end(span, info, failed) }()
		for ev, err := range events(ctx) {
			if err != nil {
				failed = err
			} else if info.ContextID == "" {
				info = ev.TaskInfo()
			}
			if !yield(ev, err) {
				return
			}
		}
	}
}

func infoOf(task *a2a.Task) a2a.TaskInfo {
	if task == nil {
		return a2a.TaskInfo{}
	}
	return task.TaskInfo()
}
