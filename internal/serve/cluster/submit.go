package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/google/uuid"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
	server "github.com/mur-go/mur/internal/serve/a2a"
)

// made is what a message id made: the task, kept under MessageKey so a
// resent message finds it on any gateway, whenever it is resent.
type made struct {
	Task    string `json:"task"`
	Context string `json:"context"`
}

// submit queues the message's task and returns its record: a message
// whose id this capsule already took answers with the task it made
// (queued again, which the stream's duplicate window or the worker's
// check of the record makes harmless), never a second task.
func (h *handler) submit(ctx context.Context, req *a2a.SendMessageRequest) (*queue.Record, error) {
	if err := server.CheckMessage(req); err != nil {
		return nil, err
	}
	msg := req.Message
	text, err := messageText(msg)
	if err != nil {
		return nil, err
	}
	if msg.TaskID != "" {
		return h.answer(ctx, msg, text)
	}
	var r *queue.Record
	err = queue.Retry(ctx, retryBudget, func(ctx context.Context) error {
		var err error
		r, err = h.queueTask(ctx, msg, text)
		return err
	})
	if err != nil {
		return nil, h.g.internal("queueing the task", err)
	}
	return r, nil
}

// retryBudget is how long a request rides out the cluster's passing
// unavailability (a server down, a leader election).
const retryBudget = 15 * time.Second

// queueTask is one try at what submit does: find or mint the message's
// task, record it, queue its job and read the record back. Each step is
// safe to repeat.
func (h *handler) queueTask(ctx context.Context, msg *a2a.Message, text string) (*queue.Record, error) {
	kv := h.g.o.Stores.Tasks
	m, err := h.made(ctx, kv, msg)
	if err != nil {
		return nil, err
	}
	key := queue.TaskKey(h.name, m.Task)
	kept := *msg
	kept.TaskID, kept.ContextID = a2a.TaskID(m.Task), m.Context
	rec := &queue.Record{Task: &a2a.Task{ID: a2a.TaskID(m.Task), ContextID: m.Context,
		Status:  a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: now()},
		History: []*a2a.Message{&kept}}}
	if err := queue.Create(ctx, kv, key, rec); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, err
	}
	job, err := json.Marshal(queue.Job{TaskID: m.Task, ContextID: m.Context, Text: text, Traceparent: jobTraceparent(ctx)})
	if err != nil {
		return nil, err
	}
	if _, err := h.g.o.Conn.JS.Publish(ctx, queue.JobSubject(h.name), job, jetstream.WithMsgID(m.Task)); err != nil {
		return nil, err
	}
	r, _, err := queue.Get(ctx, kv, key)
	return r, err
}

// made mints the task for a message id, or finds the one it made.
func (h *handler) made(ctx context.Context, kv jetstream.KeyValue, msg *a2a.Message) (made, error) {
	key := queue.MessageKey(h.name, msg.ID)
	tid, err := uuid.NewV7()
	if err != nil {
		return made{}, err
	}
	m := made{Task: "tsk_" + strings.ReplaceAll(tid.String(), "-", ""), Context: msg.ContextID}
	if m.Context == "" {
		cid, err := uuid.NewV7()
		if err != nil {
			return made{}, err
		}
		m.Context = "ctx_" + strings.ReplaceAll(cid.String(), "-", "")
	}
	b, _ := json.Marshal(m)
	if _, err := kv.Create(ctx, key, b); err == nil {
		return m, nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return made{}, err
	}
	e, err := kv.Get(ctx, key)
	if err != nil {
		return made{}, err
	}
	var old made
	if err := json.Unmarshal(e.Value(), &old); err != nil || old.Task == "" {
		return made{}, fmt.Errorf("the record of message id key %s is not one mur wrote", key)
	}
	return old, nil
}

// messageText is the task a message gives: its text parts, joined.
func messageText(msg *a2a.Message) (string, error) {
	var b strings.Builder
	for i, p := range msg.Parts {
		t, ok := p.Content.(a2a.Text)
		if !ok {
			return "", fmt.Errorf("message part %d is not text: a capsule's task is text: %w", i, a2a.ErrInvalidParams)
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(string(t))
	}
	return b.String(), nil
}

func now() *time.Time {
	t := time.Now().UTC()
	return &t
}

// internal logs what went wrong with the cluster and tells the client
// only that it did.
func (g *gateway) internal(what string, err error) error {
	g.log.Warn(what, "error", err)
	return fmt.Errorf("%s failed: the gateway could not reach the cluster: %w", what, a2a.ErrInternalError)
}
