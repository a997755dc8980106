package a2a

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// replayFrames is how many frames stream/watch can replay (a2a-cli.md §2.9).
const replayFrames = 512

// frame is one named SSE event of Murmur's stream (session.md §11.1): its
// payload v is encoded into data when a watcher first reads it, so a
// capsule nobody watches encodes nothing.
type frame struct {
	id    uint64
	event string
	v     any
	data  []byte
}

// watchHub is the session-wide replay ring behind stream/watch. Ids run
// on across tasks (Murmur restarts them per task, which makes
// Last-Event-ID ambiguous), so a reconnecting watcher gets exactly what it
// missed, or a gap frame when the ring already dropped it. Writers never
// wait for readers.
type watchHub struct {
	mu sync.Mutex
	// ring holds the last replayFrames frames, the oldest at head once
	// it is full: a new frame overwrites the oldest in place.
	ring   []frame
	head   int
	next   uint64
	wake   chan struct{} // nil until a watcher waits
	closed bool
	mode   string
}

func newWatchHub(conversation string) *watchHub {
	if conversation == "" {
		conversation = "stateless"
	}
	return &watchHub{next: 1, mode: conversation}
}

func (h *watchHub) emit(event string, v any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	f := frame{id: h.next, event: event, v: v}
	h.next++
	if len(h.ring) < replayFrames {
		h.ring = append(h.ring, f)
	} else {
		h.ring[h.head] = f
		h.head = (h.head + 1) % replayFrames
	}
	if h.wake != nil {
		close(h.wake)
		h.wake = nil
	}
}

type watchStatus struct {
	ID        string          `json:"id"`
	ContextID string          `json:"context_id,omitempty"`
	Status    watchStatusBody `json:"status"`
	Final     bool            `json:"final"`
}

type watchStatusBody struct {
	State    string  `json:"state"`
	Message  string  `json:"message"`
	Response *string `json:"response,omitempty"`
}

type watchArtifact struct {
	ID       string            `json:"id"`
	Artifact watchArtifactBody `json:"artifact"`
}

type watchArtifactBody struct {
	ToolName string `json:"tool_name"`
	Content  string `json:"content"`
}

type watchText struct {
	ID    string `json:"id"`
	Text  string `json:"text"`
	Final bool   `json:"final"`
}

func (h *watchHub) status(r *record, state, message string, response *string, final bool) {
	h.emit("status", watchStatus{ID: string(r.id), ContextID: r.contextID,
		Status: watchStatusBody{State: state, Message: message, Response: response}, Final: final})
}

func (h *watchHub) artifact(r *record, tool, content string) {
	h.emit("artifact", watchArtifact{ID: string(r.id), Artifact: watchArtifactBody{ToolName: tool, Content: content}})
}

func (h *watchHub) text(r *record, event, text string, final bool) {
	h.emit(event, watchText{ID: string(r.id), Text: text, Final: final})
}

// close ends every watcher's stream with capsule-closed.
func (h *watchHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		if h.wake != nil {
			close(h.wake)
		}
	}
}

// since returns the frames after last, whether some were already dropped
// (then first is the oldest kept id), the channel that wakes on the next
// frame, and whether the hub closed.
func (h *watchHub) since(last uint64) (out []frame, gap bool, first uint64, wake <-chan struct{}, closed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.ring); n > 0 {
		oldest := h.ring[h.head].id
		if last+1 < oldest {
			gap, first = true, oldest
		}
		for i := range n {
			f := &h.ring[(h.head+i)%n]
			if f.id <= last {
				continue
			}
			if f.data == nil {
				// Only this file's plain structs of strings and bools
				// are encoded, which cannot fail.
				f.data, _ = json.Marshal(f.v)
			}
			out = append(out, *f)
		}
	}
	if h.closed {
		return out, gap, first, nil, true
	}
	if h.wake == nil {
		h.wake = make(chan struct{})
	}
	return out, gap, first, h.wake, false
}

// watchState is Murmur's kebab-case name of a public task state.
func watchState(s a2a.TaskState) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(s), "TASK_STATE_")), "_", "-")
}
