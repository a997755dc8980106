package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// answerWait bounds the wait for the worker's reply to an answer (it
// writes the record once before it replies).
const answerWait = 15 * time.Second

// answer hands a message naming a task to the worker whose attempt asked
// for input, wherever it is: the record names the worker and the
// attempt, and the worker replies once the record says working again.
// A task whose worker is gone is not lost, but its question is: another
// worker runs it again from the start after the ack wait, and it asks
// again; the answer is refused saying so.
func (h *handler) answer(ctx context.Context, msg *a2a.Message, text string) (*queue.Record, error) {
	r, err := h.get(ctx, msg.TaskID)
	if err != nil {
		return nil, err
	}
	if r.Task.Status.State != a2a.TaskStateInputRequired {
		return nil, fmt.Errorf("task %s is %s, not waiting for input: send a new message without taskId for a new task: %w",
			msg.TaskID, r.Task.Status.State, a2a.ErrInvalidParams)
	}
	if r.Worker == "" || strings.ContainsAny(r.Worker, ".*> ") {
		return nil, h.g.internal("answering the task", fmt.Errorf("task %s's record names no worker", msg.TaskID))
	}
	b, err := json.Marshal(queue.Answer{TaskID: string(r.Task.ID), Attempt: r.Attempt, Text: text, Message: msg})
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, answerWait)
	defer cancel()
	m, err := h.g.o.Conn.NC.RequestWithContext(rctx, queue.InputSubject(h.name, r.Worker), b)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, fmt.Errorf("task %s's worker is gone, and its question with it: another worker runs the task again "+
			"from the start (attempt %d) and it asks again; answer that: %w", msg.TaskID, r.Attempt+1, a2a.ErrInvalidParams)
	}
	if err != nil {
		return nil, h.g.internal("answering the task", err)
	}
	var rep queue.AnswerReply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return nil, h.g.internal("answering the task", fmt.Errorf("the worker's reply: %w", err))
	}
	if rep.Error != "" {
		return nil, fmt.Errorf("task %s took no answer: %s: %w", msg.TaskID, rep.Error, a2a.ErrInvalidParams)
	}
	return h.get(ctx, msg.TaskID)
}
