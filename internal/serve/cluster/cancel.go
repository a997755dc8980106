package cluster

import (
	"context"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// CancelTask marks the task's record canceled-on-request; a task no
// worker has started ends canceled at once (its final event published
// here), one that runs is told to its workers on the capsule's cancel
// subject and ends when the worker running it has stopped it. A worker
// that takes the task later (a redelivery) finds the mark and runs
// nothing.
func (h *handler) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	if req == nil {
		return nil, fmt.Errorf("a task id is required: %w", a2a.ErrInvalidParams)
	}
	if _, err := h.get(ctx, req.ID); err != nil {
		return nil, err
	}
	var ended, queued bool
	var r *queue.Record
	err := queue.Retry(ctx, retryBudget, func(ctx context.Context) error {
		var err error
		r, err = queue.Update(ctx, h.g.o.Stores.Tasks, h.key(req.ID), h.markCanceled(&ended, &queued))
		return err
	})
	if err != nil {
		return nil, h.g.internal("canceling the task", err)
	}
	if ended {
		return nil, fmt.Errorf("task %s has already ended (%s): %w", req.ID, r.Task.Status.State, a2a.ErrTaskNotCancelable)
	}
	if queued {
		h.publishFinal(ctx, r.Task)
		return r.Task, nil
	}
	if err := h.g.o.Conn.NC.Publish(queue.CancelSubject(h.name), []byte(req.ID)); err != nil {
		return nil, h.g.internal("telling the workers to cancel", err)
	}
	wait, cancel := context.WithTimeout(ctx, h.g.o.CancelWait)
	defer cancel()
	r, err = h.g.waits.until(wait, h.key(req.ID), (*queue.Record).Final)
	if err != nil && r == nil {
		return nil, h.g.internal("waiting for the cancel", err)
	}
	return r.Task, nil
}

// markCanceled is the change CancelTask makes to the record: ended says
// the task had ended already, queued that no worker had started it.
func (h *handler) markCanceled(ended, queued *bool) func(*queue.Record) error {
	return func(r *queue.Record) error {
		*ended, *queued = r.Final(), false
		if *ended {
			return queue.ErrUnchanged
		}
		r.Cancel = true
		if r.Task.Status.State == a2a.TaskStateSubmitted {
			*queued = true
			r.Task.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, Timestamp: now(),
				Message: a2a.NewMessageForTask(a2a.MessageRoleAgent, r.Task, a2a.NewTextPart("task canceled before it started"))}
		}
		return nil
	}
}

// publishFinal ends the task's event stream, for a task no worker will.
func (h *handler) publishFinal(ctx context.Context, t *a2a.Task) {
	ev := &a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}
	b, err := queue.EncodeEvent(ev)
	if err == nil {
		err = queue.Retry(ctx, retryBudget, func(ctx context.Context) error {
			_, err := h.g.o.Conn.JS.Publish(ctx, queue.EventSubject(h.name, string(t.ID)), b)
			return err
		})
	}
	if err != nil {
		h.g.log.Warn("publishing a canceled task's last event", "task", t.ID, "error", err)
	}
}
