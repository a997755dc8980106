package agent

import (
	"context"
	"errors"
	"sync"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/tools"
)

// redactedTask is a task's Events and TaskIO as the loop hands them to
// the driver, the tools and the hooks: every text they send out to the
// task (chunks, request-input prompts, statuses, artifacts, texts)
// leaves without the session's secrets. The chunks of both kinds are one
// stream, as a watcher reads them back to back: a secret split across
// chunks (a provider's SSE deltas), calls, turns or kinds is caught, and
// the tail kept back for it goes out before any other event, so the
// order a client sees is the order things happened.
type redactedTask struct {
	secrets *redact.Redactor
	events  Events
	io      tools.TaskIO // nil outside A2A

	mu sync.Mutex
	// chunks is the task's chunk stream; heldThinking the kind of the
	// bytes it keeps back.
	chunks       redact.Stream
	heldThinking bool
	// onChunk, if set, sees every piece as it goes out, redacted.
	onChunk func(text string, thinking bool)
}

func newRedactedTask(secrets *redact.Redactor, events Events, io tools.TaskIO) redactedTask {
	return redactedTask{secrets: secrets, events: events, io: io, chunks: secrets.Stream()}
}

// taskIO is the TaskIO the task's guests get: nil when there is none, so
// chunks are still dropped and request-input still traps outside A2A.
func (r *redactedTask) taskIO() tools.TaskIO {
	if r.io == nil {
		return nil
	}
	return redactedIO{r}
}

// flush sends the chunk bytes kept back: the stream ended (a driver
// call, the task) or another event is about to go out.
func (r *redactedTask) flush(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushLocked(ctx)
}

func (r *redactedTask) flushLocked(ctx context.Context) {
	if out := r.chunks.Flush(); out != "" && (r.io != nil || r.onChunk != nil) {
		r.emitChunk(ctx, out, r.heldThinking)
	}
}

// emitChunk sends a redacted piece to the task's client, if any, and the
// observer.
func (r *redactedTask) emitChunk(ctx context.Context, out string, thinking bool) {
	if r.io != nil {
		r.io.EmitChunk(ctx, out, thinking)
	}
	if r.onChunk != nil {
		r.onChunk(out, thinking)
	}
}

// driverIO is the TaskIO the driver streams to: the task's, or for a
// task with no client (task.md) that an observer watches, one whose
// chunks only the observer sees, redacted as a client's would be;
// request-input traps there as it does with no TaskIO.
func (r *redactedTask) driverIO() tools.TaskIO {
	switch {
	case r.io != nil:
		return redactedIO{r}
	case r.onChunk != nil:
		return observedIO{redactedIO{r}}
	}
	return nil
}

// observedIO is driverIO's TaskIO for a task with no client.
type observedIO struct{ redactedIO }

func (observedIO) RequestInput(context.Context, string) (string, error) {
	return "", host.ErrNoTaskContext
}

// redactedIO is the task's TaskIO side.
type redactedIO struct{ r *redactedTask }

func (w redactedIO) EmitChunk(ctx context.Context, text string, thinking bool) {
	r := w.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if thinking != r.heldThinking {
		// The kept bytes go out as what they were; the stream remembers
		// them, so a secret they began is still cut.
		r.flushLocked(ctx)
		r.heldThinking = thinking
	}
	if out := r.chunks.Write(text); out != "" {
		r.emitChunk(ctx, out, thinking)
	}
}

// RequestInput asks with the prompt redacted; the answer is the user's.
func (w redactedIO) RequestInput(ctx context.Context, prompt string) (string, error) {
	w.r.flush(ctx)
	return w.r.io.RequestInput(ctx, w.r.secrets.String(prompt))
}

// Events side: each event goes out after the chunks before it.

func (r *redactedTask) Status(s StatusEvent) {
	r.flush(context.Background())
	s.Message = r.secrets.String(s.Message)
	if s.Response != nil {
		if text := r.secrets.String(*s.Response); text != *s.Response {
			s.Response = new(string)
			*s.Response = text
		}
	}
	r.events.Status(s)
}

func (r *redactedTask) Artifact(toolName, content string) {
	r.flush(context.Background())
	r.events.Artifact(r.secrets.String(toolName), r.secrets.String(content))
}

func (r *redactedTask) Text(text string) {
	r.flush(context.Background())
	r.events.Text(r.secrets.String(text))
}

// redactResult is how a task ended as its source and the caller of
// Run are told: the text and the error without the session's
// secrets. The coded error's message and hint are redacted in place,
// since callers read them as fields (session quotes the message), not
// only through Error().
func redactResult(secrets *redact.Redactor, r TaskResult) TaskResult {
	if !secrets.Active() {
		return r
	}
	r.Text = secrets.String(r.Text)
	var e *diag.Error
	if errors.As(r.Err, &e) {
		e.Msg, e.Hint = secrets.String(e.Msg), secrets.String(e.Hint)
	}
	r.Err = secrets.Error(r.Err)
	return r
}
