package cluster

import (
	"context"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// follow yields the task's published events from the first, until a
// final one or ctx's end. An ordered consumer reads them: ephemeral, in
// order, recreated by the client if a server goes away.
func (h *handler) follow(ctx context.Context, id a2a.TaskID, yield func(a2a.Event, error) bool) {
	cons, err := h.g.o.Conn.JS.OrderedConsumer(ctx, queue.EventsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{queue.EventSubject(h.name, string(id))}, DeliverPolicy: jetstream.DeliverAllPolicy})
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
		if !yield(ev, nil) || queue.FinalEvent(ev) {
			return
		}
	}
}
