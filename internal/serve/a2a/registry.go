package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Lifecycle task acceptance modes (a2a-cli.md §4).
const (
	AcceptNone   = "none"
	AcceptSingle = "single"
	AcceptQueue  = "queue"
)

// busyMessage is the rejected task's status text (a2a-cli.md §2.9).
const busyMessage = "task rejected: capsule is busy"

// errClosed refuses work once the session no longer takes tasks.
var errClosed = errors.New("the capsule is shutting down and takes no more tasks")

// registry holds every task the server accepted, the queue of those not yet
// started and the acceptance rule (a2a-cli.md §2.5, §2.7).
type registry struct {
	mu sync.Mutex
	// table has a row for every task ever accepted (RATIONALE.md,
	// "Memory"); live holds the records of those not settled yet.
	table taskTable
	live  map[idKey]*record
	// replies are the newest keep settled tasks as GetTask returns
	// them; beyond keep the oldest is forgotten down to its row.
	replies replyRing
	queue   []*record // accepted, not started
	queued  chan struct{}
	running *record
	taken   int // tasks ever accepted (single takes one per launch)
	closed  bool

	acceptance string
	depth      int
	keep       int // finished tasks that keep their reply
	watch      *watchHub
}

func newRegistry(acceptance string, depth, keep int, watch *watchHub) *registry {
	return &registry{
		live: map[idKey]*record{}, queued: make(chan struct{}, 1),
		acceptance: acceptance, depth: depth, keep: keep, watch: watch,
	}
}

// canAccept is §2.7's capacity rule; called locked.
func (g *registry) canAccept() bool {
	switch g.acceptance {
	case AcceptSingle:
		return g.taken == 0 && g.running == nil
	case AcceptQueue:
		return len(g.queue) < g.depth
	}
	return false
}

// submission is what submit did with a message.
type submission struct {
	rec      *record
	rejected *a2a.Task // set when the capsule was busy
	from     int       // log index to read the outcome from
}

// lookup is the task with id, live or settled; called locked.
func (g *registry) lookup(id a2a.TaskID) (*record, bool) {
	k, ok := parseKey(taskPrefix, string(id))
	if !ok {
		return nil, false
	}
	if rec := g.live[k]; rec != nil {
		return rec, true
	}
	row, ok := g.table.find(k)
	if !ok {
		return nil, false
	}
	return g.settledRecord(row), true
}

// settledRecord is the settled task at row as GetTask and ListTasks read
// it: its kept reply, or, once that was forgotten, its state and context.
func (g *registry) settledRecord(row int) *record {
	e := g.table.at(row)
	rec := &record{id: a2a.TaskID(e.id.id(taskPrefix)), key: e.id, row: row,
		contextID: g.table.contextID(e), status: e.status(), stored: true}
	if blob := g.replies.get(e.reply); blob != nil {
		// The bytes are the Task this registry encoded; were they ever
		// unreadable, the row still answers with state and context.
		var st storedTask
		if json.Unmarshal(blob, &st) == nil {
			if st.StatusInHistory && len(st.Task.History) > 0 {
				m := *st.Task.History[len(st.Task.History)-1]
				st.Task.Status.Message = &m
			}
			rec.status, rec.artifacts, rec.history = st.Task.Status, st.Task.Artifacts, st.Task.History
		}
	}
	return rec
}

// storedTask is a kept reply: the Task as GetTask returned it when it
// settled, without its status message when that is the last message of
// its history (a task's final word is both), which it would otherwise
// hold twice.
type storedTask struct {
	Task            *a2a.Task `json:"t"`
	StatusInHistory bool      `json:"h,omitempty"`
}

// encodeReply is rec's kept reply; called locked.
func encodeReply(rec *record) ([]byte, error) {
	st := storedTask{Task: rec.snapshot(nil)}
	if h := rec.history; rec.status.Message != nil && len(h) > 0 && h[len(h)-1] == rec.status.Message {
		st.Task.Status.Message, st.StatusInHistory = nil, true
	}
	return json.Marshal(st)
}

// release ends a request's hold on rec (taken by submit or resume); the
// last one out settles a finished task.
func (g *registry) release(rec *record) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rec.readers--
	g.settle(rec)
}

// settle moves rec, once it ended and nobody reads it, into its table row
// and (within keep) the reply ring, and forgets the oldest reply beyond
// keep; called locked.
func (g *registry) settle(rec *record) {
	if !rec.terminal() || rec.readers > 0 || rec.stored {
		return
	}
	e := g.table.at(rec.row)
	e.setStatus(rec.status)
	e.live = false
	delete(g.live, rec.key)
	if g.keep > 0 {
		// The Task encodes from the SDK's own JSON-decoded values and
		// this package's strings; were it ever to fail, the row alone
		// keeps what §2.5 requires.
		if blob, err := encodeReply(rec); err == nil {
			e.reply = g.replies.add(blob)
		}
		for g.replies.len() > g.keep {
			g.replies.forgetOldest()
		}
	}
	rec.drop()
}

// newTaskKey mints the next task id, which the table's binary search
// needs to be greater than every id before it; called locked.
func (g *registry) newTaskKey() (idKey, error) {
	last := g.table.lastID()
	for range 3 {
		k, err := newKey(taskPrefix)
		if err != nil {
			return idKey{}, err
		}
		if bytes.Compare(k[:], last[:]) > 0 {
			return k, nil
		}
	}
	return idKey{}, fmt.Errorf("minting a task id: the UUIDv7 source does not increase past %s", last.id(taskPrefix))
}

// submit takes a message: an answer to a task waiting for input, or a new
// task. A new task gets tsk_/ctx_ ids and waits in the queue.
func (g *registry) submit(msg *a2a.Message, traceparent string) (submission, error) {
	text := messageText(msg)
	g.mu.Lock()
	defer g.mu.Unlock()
	if rec := g.waitingFor(msg); rec != nil {
		return g.deliver(rec, msg, text)
	}
	if msg.TaskID != "" {
		rec, ok := g.lookup(msg.TaskID)
		if !ok {
			return submission{}, fmt.Errorf("task %s: %w", msg.TaskID, a2a.ErrTaskNotFound)
		}
		return submission{}, fmt.Errorf("task %s is %s, not waiting for input: send a new message without taskId for a new task: %w",
			rec.id, rec.status.State, a2a.ErrInvalidParams)
	}
	if g.acceptance == AcceptNone {
		return submission{}, fmt.Errorf("this capsule takes no tasks (lifecycle.task_acceptance: none): %w", a2a.ErrMethodNotFound)
	}
	key, err := g.newTaskKey()
	if err != nil {
		return submission{}, err
	}
	ctxID := msg.ContextID
	if ctxID == "" {
		if ctxID, err = newID(contextPrefix); err != nil {
			return submission{}, err
		}
	}
	rec := &record{id: a2a.TaskID(key.id(taskPrefix)), key: key, contextID: ctxID, messageID: msg.ID, trace: traceparent, text: text}
	now := time.Now().UTC()
	if g.closed || !g.canAccept() {
		why := busyMessage
		if g.closed {
			why = errClosed.Error()
		}
		rec.status = a2a.TaskStatus{State: a2a.TaskStateRejected, Timestamp: &now,
			Message: a2a.NewMessageForTask(a2a.MessageRoleAgent, rec.info(), a2a.NewTextPart(why))}
		g.watch.status(rec, "rejected", why, nil, true)
		return submission{rejected: rec.snapshot(nil)}, nil
	}
	m := *msg
	m.TaskID, m.ContextID = rec.id, ctxID
	rec.history = []*a2a.Message{&m}
	rec.status = a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: &now}
	rec.row = g.table.add(entry{id: key, live: true}, ctxID)
	g.live[key] = rec
	g.queue = append(g.queue, rec)
	g.taken++
	rec.readers++
	select {
	case g.queued <- struct{}{}:
	default:
	}
	return submission{rec: rec}, nil
}

// waitingFor is the task msg answers: the one it names, or, when it names
// none, the task of its context that waits for input (Murmur's clients
// answer without a task id). Called locked.
func (g *registry) waitingFor(msg *a2a.Message) *record {
	if msg.TaskID != "" {
		k, _ := parseKey(taskPrefix, string(msg.TaskID))
		if rec := g.live[k]; rec != nil && rec.answer != nil {
			return rec
		}
		return nil
	}
	if msg.ContextID == "" {
		return nil
	}
	if rec := g.running; rec != nil && rec.answer != nil && rec.contextID == msg.ContextID {
		return rec
	}
	return nil
}

// deliver hands text to rec's pending request-input; called locked.
func (g *registry) deliver(rec *record, msg *a2a.Message, text string) (submission, error) {
	m := *msg
	m.TaskID, m.ContextID = rec.id, rec.contextID
	rec.history = append(rec.history, &m)
	from := len(rec.log)
	select {
	case rec.answer <- text:
	default:
		return submission{}, fmt.Errorf("task %s already has an answer: %w", rec.id, a2a.ErrInvalidParams)
	}
	rec.readers++
	return submission{rec: rec, from: from}, nil
}

// next waits for the next queued task for at most wait (negative: no
// bound). ok is false on timeout. idle runs, unlocked, each time the queue
// is found empty, before the wait.
func (g *registry) next(ctx context.Context, wait time.Duration, idle func()) (*record, bool, error) {
	var timeout <-chan time.Time
	if wait >= 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		g.mu.Lock()
		for len(g.queue) > 0 {
			rec := g.queue[0]
			g.queue = g.queue[1:]
			if rec.terminal() { // canceled while queued
				continue
			}
			g.running = rec
			rec.apply(rec.statusEvent(a2a.TaskStateWorking, ""))
			g.mu.Unlock()
			return rec, true, nil
		}
		g.mu.Unlock()
		idle()
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-timeout:
			return nil, false, nil
		case <-g.queued:
		}
	}
}

// pending reports whether a task is queued.
func (g *registry) pending() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue) > 0
}

// finish ends rec with ev (first finish wins; nil for one already
// ended) and clears the running slot.
func (g *registry) finish(rec *record, ev *a2a.TaskStatusUpdateEvent, response *string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ev != nil {
		g.finishLocked(rec, ev, response)
	}
	if g.running == rec {
		g.running = nil
	}
}

func (g *registry) finishLocked(rec *record, ev *a2a.TaskStatusUpdateEvent, response *string) {
	msg := ""
	if ev.Status.Message != nil {
		msg = messageText(ev.Status.Message)
	}
	if rec.apply(ev) && !rec.watched {
		rec.watched = true
		g.watch.status(rec, watchState(ev.Status.State), msg, response, true)
	}
	g.settle(rec)
}

// close stops taking tasks and fails those that will never run.
func (g *registry) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for _, rec := range g.queue {
		g.finishLocked(rec, rec.statusEvent(a2a.TaskStateFailed, "the capsule stopped before this task ran"), nil)
	}
	g.queue = nil
}

// cancel ends a queued task at once, or cancels a running task's context
// and waits until the loop let go of it.
func (g *registry) cancelTask(ctx context.Context, id a2a.TaskID) (*a2a.Task, error) {
	g.mu.Lock()
	rec, ok := g.lookup(id)
	if !ok {
		g.mu.Unlock()
		return nil, fmt.Errorf("task %s: %w", id, a2a.ErrTaskNotFound)
	}
	switch {
	case rec.status.State == a2a.TaskStateCanceled:
		defer g.mu.Unlock()
		return rec.snapshot(nil), nil
	case rec.terminal():
		defer g.mu.Unlock()
		return nil, fmt.Errorf("task %s already ended %s: %w", id, rec.status.State, a2a.ErrTaskNotCancelable)
	case g.running != rec:
		g.queue = slices.DeleteFunc(g.queue, func(q *record) bool { return q == rec })
		g.finishLocked(rec, rec.statusEvent(a2a.TaskStateCanceled, "canceled before it started"), nil)
		defer g.mu.Unlock()
		return rec.snapshot(nil), nil
	}
	rec.cancelReq = true
	if rec.cancel != nil {
		rec.cancel()
	}
	for !rec.terminal() {
		wake := rec.nextFinal()
		g.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("task %s: waiting for the loop to stop: %w", id, ctx.Err())
		case <-wake:
		}
		g.mu.Lock()
	}
	defer g.mu.Unlock()
	return rec.snapshot(nil), nil
}

// get is GetTask.
func (g *registry) get(id a2a.TaskID, historyLen *int) (*a2a.Task, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rec, ok := g.lookup(id)
	if !ok {
		return nil, fmt.Errorf("task %s: %w", id, a2a.ErrTaskNotFound)
	}
	return rec.snapshot(historyLen), nil
}

// messageText joins a message's text parts with "\n" (a2a-cli.md §2.4).
func messageText(m *a2a.Message) string {
	var out []byte
	first := true
	for _, p := range m.Parts {
		t, ok := p.Content.(a2a.Text)
		if !ok {
			continue
		}
		if !first {
			out = append(out, '\n')
		}
		first = false
		out = append(out, t...)
	}
	return string(out)
}
