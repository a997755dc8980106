package worker

import (
	"context"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/cluster/queue"
)

// responseArtifact is the id of the artifact that carries the answer, as
// mur run's server names it.
const responseArtifact a2a.ArtifactID = "response"

// publisher publishes one task attempt's stream events. Every payload
// goes through the session's redactor (once staged) and the worker's
// before it leaves the process.
type publisher struct {
	w       *Worker
	task    *a2a.Task // its ids; read only
	attempt int
	mu      sync.Mutex
	secrets *redact.Redactor
	chunks  int
}

func (p *publisher) setSecrets(r *redact.Redactor) {
	p.mu.Lock()
	p.secrets = r
	p.mu.Unlock()
}

// status publishes a status update; final ones end the task's stream.
func (p *publisher) status(ctx context.Context, s a2a.TaskStatus, final bool) {
	ev := &a2a.TaskStatusUpdateEvent{TaskID: p.task.ID, ContextID: p.task.ContextID, Status: s,
		Metadata: map[string]any{"murmur": map[string]any{"attempt": p.attempt}}}
	p.publish(ctx, ev, final)
}

// chunk is the model's streamed text as an appended chunk of the
// response artifact; the first chunk of an attempt replaces what an
// earlier attempt streamed.
func (p *publisher) chunk(ctx context.Context, text string) {
	p.mu.Lock()
	first := p.chunks == 0
	p.chunks++
	p.mu.Unlock()
	p.publish(ctx, &a2a.TaskArtifactUpdateEvent{TaskID: p.task.ID, ContextID: p.task.ContextID, Append: !first,
		Artifact: &a2a.Artifact{ID: responseArtifact, Name: "response", Parts: a2a.ContentParts{a2a.NewTextPart(text)}}}, false)
}

// redact is s without the session's secrets (once it is staged).
func (p *publisher) redact(s string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.secrets != nil {
		return p.secrets.String(s)
	}
	return s
}

// answer publishes the whole answer as the response artifact's last
// chunk (replacing what was streamed: the answer is what the task says).
func (p *publisher) answer(ctx context.Context, text string) {
	p.publish(ctx, &a2a.TaskArtifactUpdateEvent{TaskID: p.task.ID, ContextID: p.task.ContextID, LastChunk: true,
		Artifact: &a2a.Artifact{ID: responseArtifact, Name: "response", Parts: a2a.ContentParts{a2a.NewTextPart(text)}}}, false)
}

func (p *publisher) publish(ctx context.Context, ev a2a.Event, final bool) {
	b, err := queue.EncodeEvent(ev)
	if err != nil {
		p.w.log.Warn("encoding a task event", "task", p.task.ID, "error", err)
		return
	}
	p.mu.Lock()
	if p.secrets != nil {
		b = p.secrets.Bytes(b)
	}
	p.mu.Unlock()
	b = p.w.secrets.Bytes(b)
	subj := queue.EventSubject(p.w.o.Capsule.Name, string(p.task.ID))
	budget := 2 * time.Second
	if final {
		// Streams end on it: it rides out an election as records do.
		ctx, budget = context.WithoutCancel(ctx), 4*p.w.o.AckWait
	}
	err = queue.Retry(ctx, budget, func(ctx context.Context) error {
		_, err := p.w.o.Conn.JS.Publish(ctx, subj, b)
		return err
	})
	if err != nil && ctx.Err() == nil {
		p.w.log.Warn("publishing a task event", "task", p.task.ID, "error", p.w.secrets.String(err.Error()))
	}
}
