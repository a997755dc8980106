package worker

import (
	"context"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/tools"
)

// failedState is a2a's failed, named once for the outcomes.
const failedState = a2a.TaskStateFailed

// outcome is how a task ended in its session.
type outcome struct {
	state   a2a.TaskState
	answer  string // out/result.txt on success
	message string // the status message: the error of a failed run
}

// delivery is one claimed delivery of a job, from its claim until its
// outcome is recorded: the loop's view of it (its agent.Events, its
// tools.TaskIO, the context a cancel ends) and what the worker keeps to
// settle it.
type delivery struct {
	m       jetstream.Msg
	job     queue.Job
	key     string
	attempt int
	p       *publisher
	stop    func() // ends the in-progress acks
	done    chan struct{}

	mu        sync.Mutex
	cancelReq bool
	cancel    context.CancelFunc
	// answer is where a gateway's answer goes while the task waits for
	// input (RequestInput); nil otherwise.
	answer chan string
}

var (
	_ agent.Events     = (*delivery)(nil)
	_ agent.Cancelable = (*delivery)(nil)
	_ tools.TaskIO     = (*delivery)(nil)
)

// Context is the context the loop runs the task under; a client's cancel
// ends it, so the driver call and the tool stop.
func (d *delivery) Context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cancel = cancel
	if d.cancelReq {
		cancel()
	}
	return ctx, cancel
}

// cancelTask is a client's cancel reaching this worker.
func (d *delivery) cancelTask() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cancelReq = true
	if d.cancel != nil {
		d.cancel()
	}
}

func (d *delivery) canceled() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cancelReq
}

// The loop's per-turn statuses, tool results and closing texts stay in
// the session's trace; what the task's stream carries is the model's
// text as it comes (EmitChunk) and the outcome.
func (d *delivery) Status(agent.StatusEvent) {}
func (d *delivery) Artifact(string, string)  {}
func (d *delivery) Text(string)              {}

// EmitChunk streams the model's text as appended chunks of the response
// artifact (thinking stays in the trace).
func (d *delivery) EmitChunk(ctx context.Context, text string, thinking bool) {
	if !thinking && text != "" {
		d.p.chunk(ctx, text)
	}
}

// outcome is how the loop's result ends the task.
func (d *delivery) outcome(r agent.TaskResult) outcome {
	switch {
	case d.canceled() || r.ExitStatus == agent.ExitCancelled:
		return outcome{state: a2a.TaskStateCanceled, message: "task canceled"}
	case r.Err == nil && r.ExitStatus == "ok":
		return outcome{state: a2a.TaskStateCompleted, answer: bounded(r.Text)}
	}
	msg := r.Text
	if msg == "" && r.Err != nil {
		msg = "error: " + r.Err.Error()
	}
	if msg == "" {
		msg = "error: the task ended " + r.ExitStatus
	}
	return outcome{state: failedState, message: bounded(msg)}
}

// bounded is s cut to maxAnswer bytes, as a record carries it.
func bounded(s string) string {
	if len(s) > maxAnswer {
		return s[:maxAnswer]
	}
	return s
}
