package a2a

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// record is one accepted A2A task while it is live (queued, running, or
// read by a request): its public snapshot (state, status, artifacts,
// history), every event since it was submitted, and the hooks the loop
// and the handlers meet at. Once it ended and nobody reads it, it settles
// into its table row and the reply ring. A finished task read back is a
// record too, built for the read. The registry's mutex guards it all.
type record struct {
	id        a2a.TaskID
	key       idKey
	row       int // in the task table
	contextID string
	messageID string
	trace     string
	text      string

	status    a2a.TaskStatus
	artifacts []*a2a.Artifact
	// streamed holds the text of artifacts built from appended chunks; a
	// snapshot reads it, so a long stream costs linear time, not quadratic.
	streamed map[a2a.ArtifactID]*strings.Builder
	// open are the artifacts a turn is streaming into, until the turn's
	// end closes them (taskRun.Text).
	open    []a2a.ArtifactID
	history []*a2a.Message

	// log holds every event after the submitted snapshot, in order;
	// streams read it with their own cursor, so a slow reader never holds
	// up the loop and a resubscribe loses nothing.
	log []a2a.Event
	// changed is closed at the next event, settled at the next final one
	// (what a blocking send waits for); each is made only when someone
	// waits, so an event nobody waits for wakes no goroutine.
	changed, settled chan struct{}

	// cancel stops the task's context while it runs; cancelReq marks a
	// CancelTask so the end is reported as canceled.
	cancel    context.CancelFunc
	cancelReq bool
	// answer receives the reply to a pending request-input.
	answer chan string

	tools int // artifacts numbered per task
	// failure is the loop's failed status, held until Done says why; the
	// watch stream already got it (watched).
	failure string
	watched bool
	// readers counts the requests that read the log or wait on the task
	// (sends, streams, resubscribes); a finished task settles when the
	// last one lets go, so none of them loses an event.
	readers int
	// stored is set once r settled into the table, and on a record read
	// back from it: either is never settled again.
	stored bool
}

func (r *record) terminal() bool { return r.status.State.Terminal() }

// drop lets go of all but what the loop's late calls read (ids, state,
// flags) once r settled: the task lives on in the table and the reply
// ring, and the loop may still hold r for a while. Called locked.
func (r *record) drop() {
	r.status.Message = nil
	r.artifacts, r.streamed, r.history, r.log = nil, nil, nil, nil
	r.cancel, r.answer = nil, nil
	r.text, r.trace, r.messageID, r.failure = "", "", "", ""
	r.stored = true
}

// nextEvent is closed when r logs its next event; called locked.
func (r *record) nextEvent() <-chan struct{} {
	if r.changed == nil {
		r.changed = make(chan struct{})
	}
	return r.changed
}

// nextFinal is closed when r logs its next final event; called locked.
func (r *record) nextFinal() <-chan struct{} {
	if r.settled == nil {
		r.settled = make(chan struct{})
	}
	return r.settled
}

// notify wakes the readers waiting for ev; called locked.
func (r *record) notify(ev a2a.Event) {
	if r.changed != nil {
		close(r.changed)
		r.changed = nil
	}
	if r.settled != nil && final(ev) {
		close(r.settled)
		r.settled = nil
	}
}

// snapshot is the public Task as it stands now.
func (r *record) snapshot(historyLen *int) *a2a.Task {
	t := &a2a.Task{ID: r.id, ContextID: r.contextID, Status: r.status}
	if r.status.Message != nil {
		m := *r.status.Message
		t.Status.Message = &m
	}
	for _, a := range r.artifacts {
		c := *a
		c.Parts = append(a2a.ContentParts(nil), a.Parts...)
		if b, ok := r.streamed[a.ID]; ok {
			c.Parts = a2a.ContentParts{a2a.NewTextPart(b.String())}
		}
		t.Artifacts = append(t.Artifacts, &c)
	}
	h := r.history
	if historyLen != nil && *historyLen >= 0 && *historyLen < len(h) {
		h = h[len(h)-*historyLen:]
	}
	t.History = append([]*a2a.Message(nil), h...)
	return t
}

// apply records ev in the snapshot and the log. Events after a terminal
// state are dropped: a finished task does not change.
func (r *record) apply(ev a2a.Event) bool {
	if r.terminal() {
		return false
	}
	switch e := ev.(type) {
	case *a2a.TaskStatusUpdateEvent:
		r.status = e.Status
		// History is the conversation: the agent's questions and its
		// final word, not its progress notes ("inference turn N"), which
		// a finished task would otherwise keep for the life of the process.
		if e.Status.Message != nil && final(e) {
			r.history = append(r.history, e.Status.Message)
		}
	case *a2a.TaskArtifactUpdateEvent:
		r.mergeArtifact(e)
	}
	r.log = append(r.log, ev)
	r.notify(ev)
	return true
}

// mergeArtifact appends a chunk to the artifact with its id, or replaces
// or adds the artifact. Appended text goes to the artifact's builder.
func (r *record) mergeArtifact(e *a2a.TaskArtifactUpdateEvent) {
	i := slices.IndexFunc(r.artifacts, func(a *a2a.Artifact) bool { return a.ID == e.Artifact.ID })
	if i < 0 || !e.Append {
		if i < 0 {
			r.artifacts = append(r.artifacts, e.Artifact)
		} else {
			r.artifacts[i] = e.Artifact
		}
		delete(r.streamed, e.Artifact.ID)
		if e.Append {
			r.stream(e.Artifact)
		}
		return
	}
	if _, ok := r.streamed[e.Artifact.ID]; !ok {
		r.stream(r.artifacts[i])
	}
	b := r.streamed[e.Artifact.ID]
	for _, p := range e.Artifact.Parts {
		if t, ok := p.Content.(a2a.Text); ok {
			b.WriteString(string(t))
		}
	}
}

// stream starts the builder of a's text.
func (r *record) stream(a *a2a.Artifact) {
	if r.streamed == nil {
		r.streamed = map[a2a.ArtifactID]*strings.Builder{}
	}
	b := &strings.Builder{}
	for _, p := range a.Parts {
		if t, ok := p.Content.(a2a.Text); ok {
			b.WriteString(string(t))
		}
	}
	r.streamed[a.ID] = b
}

// artifactText is the text of artifact id as a snapshot would give it.
func (r *record) artifactText(id a2a.ArtifactID) (string, bool) {
	if b, ok := r.streamed[id]; ok {
		return b.String(), true
	}
	for _, a := range r.artifacts {
		if a.ID != id {
			continue
		}
		var b strings.Builder
		for _, p := range a.Parts {
			if t, ok := p.Content.(a2a.Text); ok {
				b.WriteString(string(t))
			}
		}
		return b.String(), true
	}
	return "", false
}

// statusEvent is a status change of r with an agent message (none if text
// is empty).
func (r *record) statusEvent(state a2a.TaskState, text string) *a2a.TaskStatusUpdateEvent {
	var msg *a2a.Message
	if text != "" {
		msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, r.info(), a2a.NewTextPart(text))
	}
	now := time.Now().UTC()
	return &a2a.TaskStatusUpdateEvent{TaskID: r.id, ContextID: r.contextID,
		Status: a2a.TaskStatus{State: state, Message: msg, Timestamp: &now}}
}

func (r *record) info() a2a.TaskInfo { return a2a.TaskInfo{TaskID: r.id, ContextID: r.contextID} }

// final reports whether ev ends a stream or a blocking send: a terminal
// state, or input-required (the client must answer).
func final(ev a2a.Event) bool {
	s, ok := ev.(*a2a.TaskStatusUpdateEvent)
	return ok && (s.Status.State.Terminal() || s.Status.State == a2a.TaskStateInputRequired)
}
