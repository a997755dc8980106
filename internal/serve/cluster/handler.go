package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	server "github.com/mur-go/mur/internal/serve/a2a"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// handler is one capsule's A2A methods over the cluster: the front door
// (serve/a2a.NewFront) calls it as mur run's calls its registry.
type handler struct {
	server.Unoffered
	g    *gateway
	name string
}

var _ a2asrv.RequestHandler = (*handler)(nil)

func (h *handler) key(id a2a.TaskID) string { return queue.TaskKey(h.name, string(id)) }

func (h *handler) get(ctx context.Context, id a2a.TaskID) (*queue.Record, error) {
	if id == "" {
		return nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams)
	}
	if strings.ContainsAny(string(id), ".*> ") {
		return nil, fmt.Errorf("task %s: %w", id, a2a.ErrTaskNotFound)
	}
	var r *queue.Record
	err := queue.Retry(ctx, retryBudget, func(ctx context.Context) error {
		var err error
		r, _, err = queue.Get(ctx, h.g.o.Stores.Tasks, h.key(id))
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, fmt.Errorf("task %s: %w", id, a2a.ErrTaskNotFound)
	}
	if err != nil {
		return nil, h.g.internal("reading the task", err)
	}
	return r, nil
}

func (h *handler) GetTask(ctx context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
	if req == nil {
		return nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams)
	}
	r, err := h.get(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	return withHistory(r.Task, req.HistoryLength), nil
}

// withHistory is t with at most n of its last messages (nil: all).
func withHistory(t *a2a.Task, n *int) *a2a.Task {
	if n == nil || *n < 0 || len(t.History) <= *n {
		return t
	}
	c := *t
	c.History = t.History[len(t.History)-*n:]
	return &c
}

// SendMessage queues the task and, unless told to return at once, waits
// for its end on the record.
func (h *handler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	r, err := h.submit(ctx, req)
	if err != nil {
		return nil, err
	}
	hist := historyLen(req)
	if req.Config != nil && req.Config.ReturnImmediately || settled(r) {
		return withHistory(r.Task, hist), nil
	}
	r, err = h.g.waits.until(ctx, h.key(r.Task.ID), settled)
	if err != nil {
		return nil, fmt.Errorf("waiting for the task: %w", err)
	}
	return withHistory(r.Task, hist), nil
}

// settled is what a blocking send waits for: the task's end, or its
// question (input-required), which the client answers with a message
// naming the task.
func settled(r *queue.Record) bool {
	return r.Final() || r.Task.Status.State == a2a.TaskStateInputRequired
}

func historyLen(req *a2a.SendMessageRequest) *int {
	if req.Config == nil {
		return nil
	}
	return req.Config.HistoryLength
}

// SendStreamingMessage yields the task as queued, then its events as the
// worker publishes them, to its end or its question; an answer's stream
// starts after the question it answers.
func (h *handler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		var from uint64
		if req != nil && req.Message != nil && req.Message.TaskID != "" {
			from = h.nextEvent(ctx, req.Message.TaskID)
		}
		r, err := h.submit(ctx, req)
		if err != nil {
			yield(nil, err)
			return
		}
		if !yield(r.Task, nil) || r.Final() {
			return
		}
		h.follow(ctx, r.Task.ID, from, yield)
	}
}

// SubscribeToTask yields the task as it stands, then every event of it
// from its start (the events stream keeps them), to its end or its
// current question.
func (h *handler) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if req == nil {
			yield(nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams))
			return
		}
		r, err := h.get(ctx, req.ID)
		if err != nil {
			yield(nil, err)
			return
		}
		if r.Final() {
			yield(nil, fmt.Errorf("task %s has ended (%s): fetch it with GetTask: %w", req.ID, r.Task.Status.State, a2a.ErrUnsupportedOperation))
			return
		}
		if !yield(r.Task, nil) {
			return
		}
		h.follow(ctx, r.Task.ID, 0, yield)
	}
}

func (h *handler) ListTasks(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	if req == nil {
		req = &a2a.ListTasksRequest{}
	}
	size := req.PageSize
	switch {
	case size < 0:
		return nil, fmt.Errorf("pageSize %d is negative: %w", size, a2a.ErrInvalidParams)
	case size == 0:
		size = 50
	case size > 100:
		size = 100
	}
	kv := h.g.o.Stores.Tasks
	lister, err := kv.ListKeysFiltered(ctx, queue.TaskKeys(h.name))
	if err != nil {
		return nil, h.g.internal("listing the tasks", err)
	}
	var ids []string
	for k := range lister.Keys() {
		ids = append(ids, queue.TaskOfKey(k))
	}
	// Task ids are UUIDv7s: newest first is descending order.
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(b, a) })
	resp := &a2a.ListTasksResponse{PageSize: size, Tasks: []*a2a.Task{}}
	for _, id := range ids {
		if req.PageToken != "" && id >= req.PageToken {
			continue
		}
		r, _, err := queue.Get(ctx, kv, queue.TaskKey(h.name, id))
		if err != nil {
			continue // expired or deleted since it was listed
		}
		t := r.Task
		if req.ContextID != "" && t.ContextID != req.ContextID || req.Status != "" && t.Status.State != req.Status ||
			req.StatusTimestampAfter != nil && (t.Status.Timestamp == nil || !t.Status.Timestamp.After(*req.StatusTimestampAfter)) {
			continue
		}
		resp.TotalSize++
		if len(resp.Tasks) == size {
			continue
		}
		c := *withHistory(t, req.HistoryLength)
		if !req.IncludeArtifacts {
			c.Artifacts = nil
		}
		resp.Tasks = append(resp.Tasks, &c)
	}
	if resp.TotalSize > len(resp.Tasks) && len(resp.Tasks) > 0 {
		resp.NextPageToken = string(resp.Tasks[len(resp.Tasks)-1].ID)
	}
	return resp, nil
}
