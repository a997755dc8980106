package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// errInputTimeout is request-input's error when
// lifecycle.input_timeout_secs passed without an answer (mur run's).
var errInputTimeout = errors.New("input-timeout")

// RequestInput puts the task in input-required with prompt, in its
// record (which names this worker and attempt, where a gateway sends the
// answer) and its stream, and waits for the answer (answer), for
// lifecycle.input_timeout_secs at most.
func (d *delivery) RequestInput(ctx context.Context, prompt string) (string, error) {
	w := d.p.w
	prompt = w.clean(d, prompt)
	ch := make(chan string, 1)
	d.mu.Lock()
	if d.answer != nil {
		d.mu.Unlock()
		return "", errors.New("request-input: the task already waits for input")
	}
	d.answer = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.answer = nil
		d.mu.Unlock()
	}()
	var rec *queue.Record
	err := queue.Retry(ctx, 4*w.o.AckWait, func(ctx context.Context) error {
		var err error
		rec, err = queue.Update(ctx, w.o.Stores.Tasks, d.key, func(r *queue.Record) error {
			if r.Final() || r.Cancel || r.Worker != w.o.ID || r.Attempt != d.attempt || r.Task.Status.State != a2a.TaskStateWorking {
				return errNotWorking
			}
			r.Task.Status = status(r.Task, a2a.TaskStateInputRequired, prompt)
			r.Task.History = append(r.Task.History, r.Task.Status.Message)
			return nil
		})
		return err
	})
	if err != nil {
		if errors.Is(err, errNotWorking) {
			return "", errors.New("request-input: task is not in working state")
		}
		return "", fmt.Errorf("request-input: recording the request: %s", w.secrets.String(err.Error()))
	}
	d.p.status(ctx, rec.Task.Status, false)
	var timeout <-chan time.Time
	if s := w.o.Capsule.Lifecycle.InputTimeoutSecs; s != nil {
		t := time.NewTimer(time.Duration(*s) * time.Second)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case text := <-ch:
		return text, nil
	case <-ctx.Done():
		return "", fmt.Errorf("request-input: %w", ctx.Err())
	case <-timeout:
		return "", errInputTimeout
	}
}

var errNotWorking = errors.New("the task is not working on this attempt")

// answer takes a gateway's Answer for a task of this worker's: the
// record says working again (with the message in its history) before
// the waiting request-input gets the text and the gateway its reply, so
// a gateway that reads the record after the reply waits for what comes
// next.
func (w *Worker) answer(m *nats.Msg) {
	reply := func(err error) {
		b, _ := json.Marshal(queue.AnswerReply{Error: errText(err)})
		if rerr := m.Respond(b); rerr != nil {
			w.log.Warn("replying to an answer", "error", rerr)
		}
	}
	a, err := queue.DecodeAnswer(m.Data)
	if err != nil {
		reply(err)
		return
	}
	w.mu.Lock()
	d := w.running[a.TaskID]
	w.mu.Unlock()
	var ch chan string
	if d != nil && d.attempt == a.Attempt {
		d.mu.Lock()
		ch, d.answer = d.answer, nil
		d.mu.Unlock()
	}
	if ch == nil {
		reply(fmt.Errorf("task %s is not waiting for input on worker %s (attempt %d)", a.TaskID, w.o.ID, a.Attempt))
		return
	}
	ctx := context.Background()
	var rec *queue.Record
	err = queue.Retry(ctx, 10*time.Second, func(ctx context.Context) error {
		var err error
		rec, err = queue.Update(ctx, w.o.Stores.Tasks, d.key, func(r *queue.Record) error {
			if r.Final() || r.Attempt != a.Attempt || r.Task.Status.State != a2a.TaskStateInputRequired {
				return errNotWorking
			}
			msg := *a.Message
			msg.TaskID, msg.ContextID = r.Task.ID, r.Task.ContextID
			r.Task.History = append(r.Task.History, &msg)
			r.Task.Status = status(r.Task, a2a.TaskStateWorking, "")
			return nil
		})
		return err
	})
	if err != nil {
		d.mu.Lock()
		d.answer = ch // still asking: a later answer may land
		d.mu.Unlock()
		reply(fmt.Errorf("recording the answer: %s", w.secrets.String(err.Error())))
		return
	}
	ch <- a.Text
	d.p.status(ctx, rec.Task.Status, false)
	reply(nil)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
