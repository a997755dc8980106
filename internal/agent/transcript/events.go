package transcript

import (
	"encoding/json"
	"hash/maphash"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
)

// A streamed answer is written when this much has streamed, or when its
// oldest held piece is this old (checked as the next piece arrives).
const (
	streamFlush = 4 << 10
	streamWait  = 2 * time.Second
)

// taskState is what the transcript follows of one task under way.
type taskState struct {
	taskID, contextID string
	// The task's last request as model_start saw it, without its closing
	// bracket: its length, its hash and how many messages it held.
	sent      bool
	sentLen   int
	sentSum   uint64
	sentCount int
	seed      maphash.Seed
	// What has streamed and is not written yet: one turn's text or
	// thinking, since the first held piece's time, until the last's.
	held        strings.Builder
	heldTurn    uint32
	heldThought bool
	since, last time.Time
}

func (w *Writer) state(e observe.Event) *taskState {
	st := w.tasks[e.TaskID]
	if st == nil {
		st = &taskState{taskID: e.TaskID, contextID: e.ContextID, seed: maphash.MakeSeed()}
		w.tasks[e.TaskID] = st
	}
	return st
}

// entries are the lines e makes: none while a streamed answer is held,
// two when held text goes out before e's own line.
func (w *Writer) entries(e observe.Event) []Entry {
	st := w.state(e)
	if e.Kind == observe.ModelText {
		return st.piece(e)
	}
	var out []Entry
	en := Entry{Kind: e.Kind.String(), Time: e.Time.UTC(), TaskID: e.TaskID, ContextID: e.ContextID, Source: e.Source,
		Name: e.Name, ToolKind: e.ToolKind, HookEvent: e.HookEvent, Status: e.Status, Decision: e.Decision,
		StopReason: e.StopReason, InputTokens: e.InputTokens, OutputTokens: e.OutputTokens, UsageReported: e.UsageReported,
		Turns: e.Turns, ExitCode: e.ExitCode, Signal: e.Signal, Cancelled: e.Cancelled, Error: e.Err}
	if e.Duration > 0 {
		en.DurationMS = float64(e.Duration.Microseconds()) / 1000
	}
	if e.Kind != observe.TaskStart && e.Kind != observe.TaskEnd {
		turn := e.Turn
		en.Turn = &turn
	}
	switch e.Kind {
	case observe.TaskStart, observe.ToolStart, observe.HookStart, observe.CompactionStart:
		en.Text = e.Input
	case observe.ModelStart:
		first := 0
		en.Text, first, en.Messages = st.newMessages(e.Input)
		en.FirstMessage = &first
	case observe.ModelEnd:
		// The answer's whole text supersedes what streamed of it; a call
		// that ended without one keeps what had streamed.
		if held, ok := st.flush(); ok && e.Output == "" {
			out = append(out, held)
		}
		en.Text = e.Output
	case observe.TaskEnd:
		if held, ok := st.flush(); ok {
			out = append(out, held)
		}
		delete(w.tasks, e.TaskID)
		en.Text = e.Output
	default:
		en.Text = e.Output
	}
	return append(out, en)
}

// newMessages is the part of a request's messages (a JSON array) not in
// the task's previous request: the array of them, the index of the first
// and the request's number of messages. When the request does not extend
// the previous one it is whole, from 0; text that is not an array is
// kept as it is, with no count.
func (st *taskState) newMessages(msgs string) (text string, first, count int) {
	text = msgs
	if st.sent && len(msgs) > st.sentLen && maphash.String(st.seed, msgs[:st.sentLen]) == st.sentSum {
		switch msgs[st.sentLen] {
		case ',':
			text, first = "["+msgs[st.sentLen+1:], st.sentCount
		case ']':
			text, first = "[]", st.sentCount
		}
	}
	var added []json.RawMessage
	if json.Unmarshal([]byte(text), &added) != nil || !strings.HasSuffix(msgs, "]") {
		st.sent = false
		return msgs, 0, 0
	}
	count = first + len(added)
	st.sent, st.sentLen, st.sentCount = count > 0, len(msgs)-1, count
	st.sentSum = maphash.String(st.seed, msgs[:st.sentLen])
	return text, first, count
}

// piece holds a streamed piece, and returns the held text as a
// model_text line when enough has streamed, or before a piece of
// another turn or of the other kind (text, thinking).
func (st *taskState) piece(e observe.Event) []Entry {
	var out []Entry
	if st.held.Len() > 0 && (e.Turn != st.heldTurn || e.Thinking != st.heldThought) {
		en, _ := st.flush()
		out = append(out, en)
	}
	if st.held.Len() == 0 {
		st.heldTurn, st.heldThought, st.since = e.Turn, e.Thinking, e.Time
	}
	st.held.WriteString(e.Text)
	st.last = e.Time
	if st.held.Len() >= streamFlush || st.last.Sub(st.since) >= streamWait {
		en, _ := st.flush()
		out = append(out, en)
	}
	return out
}

// flush is the held streamed text as a model_text line, if any.
func (st *taskState) flush() (Entry, bool) {
	if st.held.Len() == 0 {
		return Entry{}, false
	}
	turn := st.heldTurn
	en := Entry{Kind: observe.ModelText.String(), Time: st.last.UTC(), TaskID: st.taskID, ContextID: st.contextID,
		Turn: &turn, Text: st.held.String(), Thinking: st.heldThought}
	st.held.Reset()
	return en, true
}
