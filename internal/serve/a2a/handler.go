package a2a

import (
	"context"
	"fmt"
	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// handler is the transport-independent A2A request handler the SDK's
// JSON-RPC (v1.0 and v0.3) and REST transports call. It runs over the
// registry rather than the SDK's executor (RATIONALE.md).
type handler struct {
	Unoffered
	g *registry
}

var _ a2asrv.RequestHandler = (*handler)(nil)

type traceKey struct{}

// withTraceparent carries the caller's traceparent header to submit.
func withTraceparent(ctx context.Context, tp string) context.Context {
	return context.WithValue(ctx, traceKey{}, tp)
}

func traceparentFrom(ctx context.Context) string {
	tp, _ := ctx.Value(traceKey{}).(string)
	return tp
}

func (h *handler) GetTask(_ context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	if req == nil || req.ID == "" {
		return nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams)
	}
	return h.g.get(req.ID, req.HistoryLength)
}

func (h *handler) ListTasks(_ context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	if req == nil {
		req = &a2a.ListTasksRequest{}
	}
	return h.g.list(req)
}

func (h *handler) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	if req == nil || req.ID == "" {
		return nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams)
	}
	return h.g.cancelTask(ctx, req.ID)
}

// validate checks what the protocol requires of a message.
func validate(req *a2a.SendMessageRequest) error {
	switch {
	case req == nil || req.Message == nil:
		return fmt.Errorf("params.message is required: %w", a2a.ErrInvalidParams)
	case req.Message.ID == "":
		return fmt.Errorf("message.messageId is required: %w", a2a.ErrInvalidParams)
	case len(req.Message.Parts) == 0:
		return fmt.Errorf("message.parts must not be empty: %w", a2a.ErrInvalidParams)
	case req.Message.Role == "":
		return fmt.Errorf("message.role is required: %w", a2a.ErrInvalidParams)
	case req.Config != nil && req.Config.PushConfig != nil:
		return fmt.Errorf("this capsule does not send push notifications (the agent card says so): %w", a2a.ErrPushNotificationNotSupported)
	}
	return nil
}

// SendMessage waits until the task ends or needs input, unless the client
// asked to return at once; the Task it returns carries the reply.
func (h *handler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	if err := validate(req); err != nil {
		return nil, err
	}
	sub, err := h.g.submit(req.Message, traceparentFrom(ctx))
	if err != nil {
		return nil, err
	}
	if sub.rejected != nil {
		return sub.rejected, nil
	}
	defer h.g.release(sub.rec)
	if req.Config != nil && req.Config.ReturnImmediately {
		return h.g.get(sub.rec.id, historyLen(req))
	}
	if err := h.g.await(ctx, sub.rec, sub.from); err != nil {
		return nil, err
	}
	return h.g.get(sub.rec.id, historyLen(req))
}

func historyLen(req *a2a.SendMessageRequest) *int {
	if req.Config == nil {
		return nil
	}
	return req.Config.HistoryLength
}

// SendStreamingMessage streams the task from its submitted snapshot (or,
// for an answer, from the answer) to its end or its next request for input.
func (h *handler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if err := validate(req); err != nil {
			yield(nil, err)
			return
		}
		sub, err := h.g.submit(req.Message, traceparentFrom(ctx))
		if err != nil {
			yield(nil, err)
			return
		}
		if sub.rejected != nil {
			yield(sub.rejected, nil)
			return
		}
		defer h.g.release(sub.rec)
		first, err := h.g.submitted(sub)
		if err != nil || !yield(first, nil) {
			return
		}
		h.forward(ctx, sub.rec, sub.from, yield)
	}
}

// SubscribeToTask resumes a stream: the task as it stands, then every
// event after it, so a client that lost its connection misses nothing.
func (h *handler) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if req == nil || req.ID == "" {
			yield(nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams))
			return
		}
		snap, rec, from, err := h.g.resume(req.ID)
		if err != nil {
			yield(nil, err)
			return
		}
		defer h.g.release(rec)
		if !yield(snap, nil) {
			return
		}
		h.forward(ctx, rec, from, yield)
	}
}

// forward yields rec's events from index from until a final one.
func (h *handler) forward(ctx context.Context, rec *record, from int, yield func(a2a.Event, error) bool) {
	for ev, err := range h.g.events(ctx, rec, from) {
		if !yield(ev, err) || err != nil || final(ev) {
			return
		}
	}
}
