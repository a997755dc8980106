package a2a

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/tools"
)

// Artifact ids of the text a task streams.
const (
	responseArtifact = "response"
	thinkingArtifact = "thinking"
)

// ErrInputTimeout is request-input's error when lifecycle.input_timeout_secs
// passed without an answer; the task has then failed.
var ErrInputTimeout = errors.New("input-timeout")

// taskRun is one running task as the loop sees it: its agent.Events, its
// tools.TaskIO and the context a CancelTask stops. Every method records and
// returns at once; nothing waits for a client.
type taskRun struct {
	g            *registry
	rec          *record
	inputTimeout *time.Duration
}

var (
	_ agent.Events = (*taskRun)(nil)
	_ tools.TaskIO = (*taskRun)(nil)
)

// Context returns the context the loop runs this task under: CancelTask
// cancels it, so the driver call and any tool stop (agent.TaskContext).
func (t *taskRun) Context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	t.g.mu.Lock()
	defer t.g.mu.Unlock()
	t.rec.cancel = cancel
	if t.rec.cancelReq {
		cancel()
	}
	return ctx, cancel
}

// Status is a per-turn working status or the final one.
func (t *taskRun) Status(s agent.StatusEvent) {
	g, rec := t.g, t.rec
	g.mu.Lock()
	defer g.mu.Unlock()
	if rec.cancelReq && s.Final {
		return // Done reports it canceled
	}
	switch {
	case s.State == "completed":
		text := ""
		if s.Response != nil {
			text = *s.Response
		}
		// The last turn's text frames normally carried the answer already;
		// the response artifact is set here only when they did not.
		if got, ok := rec.artifactText(responseArtifact); !ok || got != text {
			rec.apply(&a2a.TaskArtifactUpdateEvent{TaskID: rec.id, ContextID: rec.contextID, LastChunk: true,
				Artifact: &a2a.Artifact{ID: responseArtifact, Name: responseArtifact, Parts: a2a.ContentParts{a2a.NewTextPart(text)}}})
		}
		g.finishLocked(rec, rec.statusEvent(a2a.TaskStateCompleted, text), s.Response)
	case s.State == "failed" || s.Final:
		// The task ends failed when the loop reports it done, with the
		// result text (the error) rather than "session ended".
		if !rec.terminal() && !rec.watched {
			rec.failure, rec.watched = s.Message, true
			g.watch.status(rec, "failed", s.Message, nil, true)
		}
	default:
		if rec.apply(rec.statusEvent(a2a.TaskStateWorking, s.Message)) {
			g.watch.status(rec, "working", s.Message, nil, false)
		}
	}
}

// Artifact is a tool call's result (or a hook's artifact).
func (t *taskRun) Artifact(toolName, content string) {
	g, rec := t.g, t.rec
	g.mu.Lock()
	defer g.mu.Unlock()
	rec.tools++
	a := &a2a.Artifact{ID: a2a.ArtifactID(fmt.Sprintf("tool-%d", rec.tools)), Name: toolName,
		Parts: a2a.ContentParts{a2a.NewTextPart(content)}, Metadata: map[string]any{"murmur_tool_name": toolName}}
	if rec.apply(&a2a.TaskArtifactUpdateEvent{TaskID: rec.id, ContextID: rec.contextID, Artifact: a, LastChunk: true}) {
		g.watch.artifact(rec, toolName, content)
	}
}

// Text closes a streamed turn (empty) or carries the whole text of a turn
// that streamed nothing: Murmur's final text frame (a2a-cli.md §2.9), here
// the response artifact's update with lastChunk set. A streamed turn's
// close appends an empty chunk; the whole text replaces the artifact.
func (t *taskRun) Text(text string) {
	g, rec := t.g, t.rec
	g.mu.Lock()
	defer g.mu.Unlock()
	if rec.terminal() {
		return
	}
	streaming := slices.Contains(rec.open, responseArtifact)
	rec.open = rec.open[:0]
	if text != "" || streaming {
		rec.apply(&a2a.TaskArtifactUpdateEvent{TaskID: rec.id, ContextID: rec.contextID, Append: text == "", LastChunk: true,
			Artifact: &a2a.Artifact{ID: responseArtifact, Name: responseArtifact, Parts: a2a.ContentParts{a2a.NewTextPart(text)}}})
	}
	g.watch.text(rec, "text", text, true)
}

// EmitChunk streams a text or thinking chunk (Murmur's text and thinking
// frames) as an appended part of its artifact, and marks the artifact as
// streaming until the turn's end.
func (t *taskRun) EmitChunk(_ context.Context, text string, thinking bool) {
	g, rec := t.g, t.rec
	id, event := a2a.ArtifactID(responseArtifact), "text"
	if thinking {
		id, event = thinkingArtifact, "thinking"
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if rec.apply(&a2a.TaskArtifactUpdateEvent{TaskID: rec.id, ContextID: rec.contextID, Append: true,
		Artifact: &a2a.Artifact{ID: id, Name: string(id), Parts: a2a.ContentParts{a2a.NewTextPart(text)}}}) {
		if !slices.Contains(rec.open, id) {
			rec.open = append(rec.open, id)
		}
		g.watch.text(rec, event, text, false)
	}
}

// RequestInput puts the task in input-required with prompt and waits for
// the next message to it (a2a-cli.md §2.8), for input_timeout_secs at most.
func (t *taskRun) RequestInput(ctx context.Context, prompt string) (string, error) {
	g, rec := t.g, t.rec
	g.mu.Lock()
	switch {
	case g.running != rec:
		g.mu.Unlock()
		return "", errors.New("request-input: task is not the active running task")
	case rec.status.State != a2a.TaskStateWorking:
		g.mu.Unlock()
		return "", errors.New("request-input: task is not in working state")
	}
	answer := make(chan string, 1)
	rec.answer = answer
	rec.apply(rec.statusEvent(a2a.TaskStateInputRequired, prompt))
	g.watch.status(rec, "input-required", prompt, nil, false)
	g.mu.Unlock()

	var timeout <-chan time.Time
	if t.inputTimeout != nil {
		timer := time.NewTimer(*t.inputTimeout)
		defer timer.Stop()
		timeout = timer.C
	}
	var text string
	var err error
	select {
	case text = <-answer:
	case <-ctx.Done():
		err = fmt.Errorf("request-input: %w", ctx.Err())
	case <-timeout:
		err = ErrInputTimeout
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	rec.answer = nil
	switch {
	case err == nil:
		if rec.apply(rec.statusEvent(a2a.TaskStateWorking, "resumed")) {
			g.watch.status(rec, "working", "resumed", nil, false)
		}
	case errors.Is(err, ErrInputTimeout):
		g.finishLocked(rec, rec.statusEvent(a2a.TaskStateFailed, "input-timeout"), nil)
	}
	return text, err
}
