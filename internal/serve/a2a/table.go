package a2a

import (
	"bytes"
	"slices"
	"sort"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// entriesPerChunk is the task table's chunk: 64 KiB of entries, a large
// object with a span of its own, so what every task keeps for the life of
// the process never pins a small-object span that the garbage of the tasks
// around it would otherwise have freed.
const entriesPerChunk = 1024

// arenaChunk is the size of a chunk of client-chosen context ids.
const arenaChunk = 64 << 10

// entry is what the table keeps of a task for the life of the process
// (a2a-cli.md §2.5): its id, context id, state and status time, with no
// pointer. A task not settled yet (live) is read from its record instead.
type entry struct {
	id idKey
	// ctx is a ctx_ id minted here; foreign locates one a client chose
	// (its n is 0 for a minted one).
	ctx     idKey
	at      int64  // status timestamp, Unix ns; 0 for none
	reply   uint64 // serial of its kept reply (replyRing); 0 for none
	foreign span
	state   uint8 // index in taskStates
	live    bool
}

// span is where a byte string is in an arena.
type span struct{ chunk, off, n uint32 }

// taskStates numbers the task states an entry stores as one byte.
var taskStates = [...]a2a.TaskState{a2a.TaskStateUnspecified, a2a.TaskStateSubmitted, a2a.TaskStateWorking,
	a2a.TaskStateInputRequired, a2a.TaskStateCompleted, a2a.TaskStateFailed, a2a.TaskStateCanceled,
	a2a.TaskStateRejected, a2a.TaskStateAuthRequired}

func stateCode(s a2a.TaskState) uint8 { return uint8(max(slices.Index(taskStates[:], s), 0)) }

func (e *entry) setStatus(s a2a.TaskStatus) {
	e.state, e.at = stateCode(s.State), 0
	if s.Timestamp != nil {
		e.at = s.Timestamp.UnixNano()
	}
}

// status is the entry's state and time as a TaskStatus.
func (e *entry) status() a2a.TaskStatus {
	s := a2a.TaskStatus{State: taskStates[e.state]}
	if e.at != 0 {
		t := time.Unix(0, e.at).UTC()
		s.Timestamp = &t
	}
	return s
}

// taskTable is every task the registry accepted, in creation order, which
// is also id order (UUIDv7s increase): append-only chunks of entries
// found by binary search, with the client-chosen context ids in an arena.
type taskTable struct {
	chunks [][]entry
	n      int
	ctx    byteArena
}

// add appends e with context id ctxID and returns its row.
func (t *taskTable) add(e entry, ctxID string) int {
	if k, ok := parseKey(contextPrefix, ctxID); ok {
		e.ctx = k
	} else {
		e.foreign = t.ctx.add(ctxID)
	}
	last := len(t.chunks) - 1
	switch {
	case last < 0 || len(t.chunks[last]) == entriesPerChunk:
		// The first chunk grows as a small capsule needs it; the
		// others are made whole.
		size := entriesPerChunk
		if last < 0 {
			size = 16
		}
		t.chunks = append(t.chunks, make([]entry, 0, size))
		last++
	case len(t.chunks[last]) == cap(t.chunks[last]):
		t.chunks[last] = slices.Grow(t.chunks[last], min(2*cap(t.chunks[last]), entriesPerChunk)-cap(t.chunks[last]))
	}
	t.chunks[last] = append(t.chunks[last], e)
	t.n++
	return t.n - 1
}

func (t *taskTable) at(row int) *entry {
	return &t.chunks[row/entriesPerChunk][row%entriesPerChunk]
}

// lastID is the newest task's id, zero for none.
func (t *taskTable) lastID() idKey {
	if t.n == 0 {
		return idKey{}
	}
	return t.at(t.n - 1).id
}

// find is the row of the task with id k.
func (t *taskTable) find(k idKey) (int, bool) {
	row := sort.Search(t.n, func(i int) bool { return bytes.Compare(t.at(i).id[:], k[:]) >= 0 })
	return row, row < t.n && t.at(row).id == k
}

// contextID is e's context id as the client sees it.
func (t *taskTable) contextID(e *entry) string {
	if e.foreign.n > 0 {
		return string(t.ctx.get(e.foreign))
	}
	return e.ctx.id(contextPrefix)
}

// contextMatcher tests entries against a ListTasks context filter without
// building each entry's id string.
type contextMatcher struct {
	key    idKey
	minted bool
	id     []byte
}

func newContextMatcher(id string) contextMatcher {
	k, ok := parseKey(contextPrefix, id)
	return contextMatcher{key: k, minted: ok, id: []byte(id)}
}

func (m contextMatcher) matches(t *taskTable, e *entry) bool {
	if e.foreign.n > 0 {
		return !m.minted && bytes.Equal(t.ctx.get(e.foreign), m.id)
	}
	return m.minted && e.ctx == m.key
}

// byteArena holds byte strings in 64 KiB chunks, never freed. A string
// equal to the one added last shares its bytes: a threaded client sends
// one context id task after task.
type byteArena struct {
	chunks [][]byte
	last   span
}

func (a *byteArena) add(s string) span {
	if a.last.n > 0 && string(a.get(a.last)) == s {
		return a.last
	}
	n := len(a.chunks) - 1
	if n < 0 || cap(a.chunks[n])-len(a.chunks[n]) < len(s) {
		a.chunks = append(a.chunks, make([]byte, 0, max(arenaChunk, len(s))))
		n++
	}
	a.last = span{chunk: uint32(n), off: uint32(len(a.chunks[n])), n: uint32(len(s))}
	a.chunks[n] = append(a.chunks[n], s...)
	return a.last
}

func (a *byteArena) get(s span) []byte { return a.chunks[s.chunk][s.off : s.off+s.n] }
