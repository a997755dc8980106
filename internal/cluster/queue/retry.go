package queue

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// attemptTimeout bounds one request: one a server that went away never
// answers must not hold the whole budget.
const attemptTimeout = 2 * time.Second

// Retry calls f until it succeeds, fails for good, or budget is spent:
// while a server is down or the cluster elects a leader, requests time
// out or are refused for a moment, and every request mur makes is safe
// to repeat (records are written by revision, jobs carry their message
// id, events are read by task).
func Retry(ctx context.Context, budget time.Duration, f func(context.Context) error) error {
	return retryEach(ctx, budget, attemptTimeout, f)
}

// retryEach is Retry with each attempt bounded by attempt.
func retryEach(ctx context.Context, budget, attempt time.Duration, f func(context.Context) error) error {
	deadline := time.Now().Add(budget)
	for {
		actx, cancel := context.WithTimeout(ctx, attempt)
		err := f(actx)
		cancel()
		if err == nil || !Transient(err) || ctx.Err() != nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Transient reports whether err is the cluster's passing unavailability
// rather than an answer.
func Transient(err error) bool {
	switch {
	case errors.Is(err, jetstream.ErrKeyExists), errors.Is(err, jetstream.ErrKeyNotFound),
		errors.Is(err, jetstream.ErrKeyDeleted), errors.Is(err, ErrUnchanged), errors.Is(err, context.Canceled):
		return false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout), errors.Is(err, nats.ErrNoResponders),
		errors.Is(err, jetstream.ErrNoStreamResponse), errors.Is(err, nats.ErrConnectionReconnecting),
		errors.Is(err, nats.ErrDisconnected):
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "temporarily unavailable") || strings.Contains(msg, "no quorum") ||
		strings.Contains(msg, "leader") || strings.Contains(msg, "no responders")
}
