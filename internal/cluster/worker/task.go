package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// claim is what the record said when the worker took a job.
type claim int

const (
	claimRun       claim = iota // run it
	claimEnded                  // it has ended already (a redelivery of a finished task)
	claimCanceled               // a client canceled it before this delivery ran
	claimExhausted              // it had its deliveries
)

// maxAnswer is the most of a task's answer a record carries.
const maxAnswer = queue.MaxRecord / 2

// run takes one delivery of a job: it claims the task's record (a new
// attempt), hands the task to the next free session with the delivery
// kept alive, and returns once the outcome is recorded and acknowledged
// (finish), so a worker that dies at any point leaves the task to be
// delivered again.
func (w *Worker) run(ctx context.Context, m jetstream.Msg, gone <-chan struct{}) {
	d := w.take(ctx, m)
	if d == nil {
		return
	}
	select {
	case w.jobs <- d:
	case <-ctx.Done():
		// The worker is stopping hard: the task goes to another worker.
		w.drop(d)
		return
	case <-gone:
		w.drop(d)
		return
	}
	select {
	case <-d.done:
	case <-gone:
		w.drop(d)
	}
}

// take claims a delivery; nil when there is nothing to run (the record
// ended it, or the delivery was handed back).
func (w *Worker) take(ctx context.Context, m jetstream.Msg) *delivery {
	var job queue.Job
	if err := json.Unmarshal(m.Data(), &job); err != nil || job.TaskID == "" {
		w.log.Warn("dropping a job mur did not write", "error", err)
		_ = m.Term()
		return nil
	}
	md, err := m.Metadata()
	if err != nil {
		w.log.Warn("a job without its metadata", "task", job.TaskID, "error", err)
		_ = m.Nak()
		return nil
	}
	key := queue.TaskKey(w.o.Capsule.Name, job.TaskID)
	attempt := int(md.NumDelivered)
	var c claim
	var rec *queue.Record
	err = queue.Retry(ctx, w.o.AckWait, func(ctx context.Context) error {
		var err error
		rec, err = queue.Update(ctx, w.o.Stores.Tasks, key, w.claim(attempt, &c))
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		w.log.Warn("dropping a job whose task has no record (expired?)", "task", job.TaskID)
		_ = m.Term()
		return nil
	}
	if err != nil {
		w.log.Warn("claiming a task", "task", job.TaskID, "error", w.secrets.String(err.Error()))
		_ = m.NakWithDelay(time.Second)
		return nil
	}
	p := &publisher{w: w, task: rec.Task, attempt: attempt}
	if c != claimRun {
		if c != claimEnded {
			p.status(ctx, rec.Task.Status, true)
		}
		w.ack(ctx, m, job.TaskID)
		return nil
	}
	d := &delivery{m: m, job: job, key: key, attempt: attempt, p: p, done: make(chan struct{})}
	w.track(job.TaskID, d)
	w.note("start", job.TaskID)
	p.status(ctx, rec.Task.Status, false)
	d.stop = w.keepAlive(m)
	return d
}

// drop lets go of a delivery the worker will not finish: unacknowledged,
// it goes to another worker after AckWait.
func (w *Worker) drop(d *delivery) {
	d.stop()
	w.untrack(d.job.TaskID)
}

// finish records the task's outcome, publishes its answer and final
// status, and only then acknowledges the delivery. A worker stopping
// hard (ctx done) records nothing: the task goes to another worker.
func (w *Worker) finish(ctx context.Context, d *delivery, out outcome) {
	defer close(d.done)
	defer w.drop(d)
	if ctx.Err() != nil {
		return
	}
	out.answer, out.message = w.clean(d, out.answer), w.clean(d, out.message)
	var final *queue.Record
	err := queue.Retry(context.WithoutCancel(ctx), 4*w.o.AckWait, func(ctx context.Context) error {
		var err error
		final, err = queue.Update(ctx, w.o.Stores.Tasks, d.key, settle(out, d.canceled(), d.attempt))
		return err
	})
	if errors.Is(err, errSuperseded) {
		// Its delivery is the later attempt's now: acknowledging it here
		// would take the job from under that attempt, lost if it dies.
		w.log.Warn("a later attempt owns the task; this attempt's outcome is dropped", "task", d.job.TaskID, "attempt", d.attempt)
		return
	}
	if err != nil {
		w.log.Warn("recording a task's outcome", "task", d.job.TaskID, "error", w.secrets.String(err.Error()))
		_ = d.m.NakWithDelay(time.Second)
		return
	}
	if out.answer != "" {
		d.p.answer(ctx, out.answer)
	}
	d.p.status(ctx, final.Task.Status, true)
	w.ack(ctx, d.m, d.job.TaskID)
	w.note(stateName(final.Task.Status.State), d.job.TaskID)
}

// clean is s without the session's secrets or the worker's.
func (w *Worker) clean(d *delivery, s string) string {
	return w.secrets.String(d.p.redact(s))
}

// claim is the change a delivery makes to the task's record: a new
// attempt by this worker, or the end the record calls for.
func (w *Worker) claim(attempt int, c *claim) func(*queue.Record) error {
	return func(r *queue.Record) error {
		*c = claimRun
		switch {
		case r.Final():
			*c = claimEnded
			return queue.ErrUnchanged
		case r.Cancel:
			*c = claimCanceled
			r.Task.Status = status(r.Task, a2a.TaskStateCanceled, "task canceled")
		case attempt > w.o.MaxAttempts:
			*c = claimExhausted
			r.Task.Status = status(r.Task, a2a.TaskStateFailed,
				fmt.Sprintf("error: no worker finished the task in %d attempts", w.o.MaxAttempts))
		default:
			r.Attempt, r.Worker = attempt, w.o.ID
			r.Task.Status = status(r.Task, a2a.TaskStateWorking, "")
		}
		return nil
	}
}

// errSuperseded: the task's record names a later attempt than the one
// settling, which ran on after its delivery went to another (a worker cut
// off from NATS for longer than AckWait).
var errSuperseded = errors.New("a later attempt owns the task")

// settle is the change that records how attempt's session ended.
func settle(out outcome, clientCancel bool, attempt int) func(*queue.Record) error {
	return func(r *queue.Record) error {
		if r.Final() {
			return queue.ErrUnchanged
		}
		if r.Attempt != attempt {
			return errSuperseded
		}
		state := out.state
		if r.Cancel && clientCancel {
			state = a2a.TaskStateCanceled
		}
		r.Task.Status = status(r.Task, state, out.message)
		if out.answer != "" {
			r.Task.Artifacts = []*a2a.Artifact{{ID: responseArtifact, Name: "response", Parts: a2a.ContentParts{a2a.NewTextPart(out.answer)}}}
		}
		if r.Task.Status.Message != nil {
			r.Task.History = append(r.Task.History, r.Task.Status.Message)
		}
		return nil
	}
}

// ack acknowledges a delivery whose task's record has ended; a lost ack
// only means a redelivery that finds the record ended and runs nothing.
func (w *Worker) ack(ctx context.Context, m jetstream.Msg, task string) {
	err := queue.Retry(context.WithoutCancel(ctx), 2*w.o.AckWait, m.DoubleAck)
	if err != nil {
		w.log.Warn("acknowledging a finished task (it may be delivered again; its record says it ended)", "task", task, "error", err)
	}
}

// status is a status of t at this instant, with text as the agent's
// message ("" for none).
func status(t *a2a.Task, state a2a.TaskState, text string) a2a.TaskStatus {
	ts := time.Now().UTC()
	s := a2a.TaskStatus{State: state, Timestamp: &ts}
	if text != "" {
		s.Message = a2a.NewMessageForTask(a2a.MessageRoleAgent, t, a2a.NewTextPart(text))
	}
	return s
}

// keepAlive tells the cluster the task is in progress every third of the
// ack wait, until stop.
func (w *Worker) keepAlive(m jetstream.Msg) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(w.o.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if err := m.InProgress(); err != nil {
					w.log.Debug("signing a task in progress", "error", err)
				}
			}
		}
	}()
	return func() { close(done) }
}

// stateName is a state as people say it: completed, canceled, failed.
func stateName(s a2a.TaskState) string {
	return strings.ToLower(strings.TrimPrefix(string(s), "TASK_STATE_"))
}

func (w *Worker) note(event, task string) {
	if w.o.OnTask != nil {
		w.o.OnTask(event, task)
	}
}
