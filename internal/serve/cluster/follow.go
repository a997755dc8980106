package cluster

import (
	"context"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// follow yields the task's published events from the stream sequence
// from (0: the first), until a final one, the task's current question, or
// ctx's end, as a stream of mur run's ends at its end or its question. A
// question with events after it was answered and is passed. An ordered
// consumer reads them: ephemeral, in order, recreated by the client if a
// server goes away.
func (h *handler) follow(ctx context.Context, id a2a.TaskID, from uint64, yield func(a2a.Event, error) bool) {
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{queue.EventSubject(h.name, string(id))}, DeliverPolicy: jetstream.DeliverAllPolicy}
	if from > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from
	}
	cons, err := h.g.o.Conn.JS.OrderedConsumer(ctx, queue.EventsStream, cfg)
	if err != nil {
		yield(nil, h.g.internal("following the task", err))
		return
	}
	msgs, err := cons.Messages()
	if err != nil {
		yield(nil, h.g.internal("following the task", err))
		return
	}
	defer msgs.Stop()
	stop := context.AfterFunc(ctx, msgs.Stop)
	defer stop()
	for {
		m, err := msgs.Next()
		if err != nil {
			if ctx.Err() == nil {
				yield(nil, h.g.internal("following the task", err))
			}
			return
		}
		ev, err := queue.DecodeEvent(m.Data())
		if err != nil {
			h.g.log.Warn("skipping an event mur did not write", "task", id, "error", err)
			continue
		}
		if ev.TaskInfo().TaskID != id {
			yield(nil, fmt.Errorf("an event of another task on task %s's subject: %w", id, a2a.ErrInternalError))
			return
		}
		if !yield(ev, nil) || queue.FinalEvent(ev) || (asks(ev) && nothingAfter(m)) {
			return
		}
	}
}

// asks reports whether ev is the task's question.
func asks(ev a2a.Event) bool {
	s, ok := ev.(*a2a.TaskStatusUpdateEvent)
	return ok && s.Status.State == a2a.TaskStateInputRequired
}

// nothingAfter reports whether m is, for now, the last of its task's events.
func nothingAfter(m jetstream.Msg) bool {
	md, err := m.Metadata()
	return err == nil && md.NumPending == 0
}

// nextEvent is the sequence the task's next event will have, or 0 (from
// the first) when it cannot be read: an answer's stream starts there, so
// it does not replay the question it answers.
func (h *handler) nextEvent(ctx context.Context, id a2a.TaskID) uint64 {
	st, err := h.g.o.Conn.JS.Stream(ctx, queue.EventsStream)
	if err != nil {
		return 0
	}
	m, err := st.GetLastMsgForSubject(ctx, queue.EventSubject(h.name, string(id)))
	if err != nil {
		return 0
	}
	return m.Sequence + 1
}
