package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go/jetstream"
)

// Job is a task as it is queued: what the worker needs to run it. It is
// published with the task id as its Nats-Msg-Id, so a job published
// twice within the stream's duplicate window is stored once.
type Job struct {
	TaskID    string `json:"task_id"`
	ContextID string `json:"context_id"`
	// Text is the task: the message's text parts, joined.
	Text string `json:"text"`
	// Traceparent is the client's W3C trace context, if it sent one.
	Traceparent string `json:"traceparent,omitempty"`
}

// Answer is a client's message to a task waiting for input, as a
// gateway hands it to the worker whose attempt asked (InputSubject).
type Answer struct {
	TaskID  string `json:"task_id"`
	Attempt int    `json:"attempt"`
	// Text is the message's text parts, joined; Message the message as
	// the task's history keeps it.
	Text    string       `json:"text"`
	Message *a2a.Message `json:"message"`
}

// DecodeAnswer reads an Answer off the cluster, where anyone who may
// publish can write one: it needs a task and a message.
func DecodeAnswer(b []byte) (Answer, error) {
	var a Answer
	if err := json.Unmarshal(b, &a); err != nil {
		return Answer{}, fmt.Errorf("an answer mur did not write: %w", err)
	}
	if a.TaskID == "" || a.Message == nil || a.Attempt < 1 {
		return Answer{}, errors.New("an answer mur did not write: it names no task, attempt or message")
	}
	return a, nil
}

// AnswerReply is the worker's reply to an Answer: Error is empty when
// the attempt took it (and the record says working again).
type AnswerReply struct {
	Error string `json:"error,omitempty"`
}

// Record is a task's state in TasksBucket: what tasks/get answers on
// every gateway, and what a worker reads before it runs a job.
type Record struct {
	Task *a2a.Task `json:"task"`
	// Attempt counts the deliveries that started the task (1 on the
	// first); a worker that died leaves it to the next.
	Attempt int `json:"attempt,omitempty"`
	// Worker names the worker of the current attempt.
	Worker string `json:"worker,omitempty"`
	// Cancel is set when a client asked to cancel the task: a worker that
	// takes it ends it canceled instead of running it.
	Cancel bool `json:"cancel,omitempty"`
}

// Final reports whether the task has ended.
func (r *Record) Final() bool { return r.Task != nil && r.Task.Status.State.Terminal() }

// MaxRecord is the largest record a bucket takes: the task's answer is
// in it.
const MaxRecord = 8 << 20

// Get reads a task's record; jetstream.ErrKeyNotFound when there is none.
func Get(ctx context.Context, kv jetstream.KeyValue, key string) (*Record, uint64, error) {
	e, err := kv.Get(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	var r Record
	if err := json.Unmarshal(e.Value(), &r); err != nil || r.Task == nil {
		return nil, 0, fmt.Errorf("task record %s is not one mur wrote: %v", key, err)
	}
	return &r, e.Revision(), nil
}

// ErrUnchanged is what an Update's change returns to leave the record.
var ErrUnchanged = errors.New("record unchanged")

// Update applies change to the record at key and writes it back only if
// nobody wrote it in between, reading again until it does; change may be
// called more than once and returns ErrUnchanged to leave the record as
// it is. Every writer of a record goes through it, so a worker's state
// and a gateway's cancel never overwrite each other.
func Update(ctx context.Context, kv jetstream.KeyValue, key string, change func(*Record) error) (*Record, error) {
	for {
		r, rev, err := Get(ctx, kv, key)
		if err != nil {
			return nil, err
		}
		if err := change(r); errors.Is(err, ErrUnchanged) {
			return r, nil
		} else if err != nil {
			return r, err
		}
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		if len(b) > MaxRecord {
			return nil, fmt.Errorf("task record %s would be %d bytes, over %d", key, len(b), MaxRecord)
		}
		if _, err = kv.Update(ctx, key, b, rev); err == nil {
			return r, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, fmt.Errorf("writing task record %s: %w", key, err)
		}
	}
}

// Create writes a new task's record; jetstream.ErrKeyExists when there
// is one.
func Create(ctx context.Context, kv jetstream.KeyValue, key string, r *Record) error {
	if err := checkID(string(r.Task.ID)); err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = kv.Create(ctx, key, b)
	return err
}

// EncodeEvent is a stream event as it is published: the SDK's
// StreamResponse form.
func EncodeEvent(ev a2a.Event) ([]byte, error) { return json.Marshal(a2a.StreamResponse{Event: ev}) }

// DecodeEvent reads a published event back.
func DecodeEvent(b []byte) (a2a.Event, error) {
	var sr a2a.StreamResponse
	if err := json.Unmarshal(b, &sr); err != nil {
		return nil, err
	}
	return sr.Event, nil
}

// FinalEvent reports whether ev ends a stream.
func FinalEvent(ev a2a.Event) bool {
	s, ok := ev.(*a2a.TaskStatusUpdateEvent)
	return ok && s.Status.State.Terminal()
}
