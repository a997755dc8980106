package a2a

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestParseKey(t *testing.T) {
	minted, err := newID(taskPrefix)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id string
		ok bool
	}{
		{minted, true},
		{"tsk_0123456789abcdef0123456789abcdef", true},
		{"tsk_0123456789ABCDEF0123456789abcdef", false}, // would print back in lowercase
		{"ctx_0123456789abcdef0123456789abcdef", false},
		{"tsk_0123456789abcdef0123456789abcde", false},
		{"tsk_0123456789abcdef0123456789abcdef0", false},
		{"tsk_0123456789abcdef0123456789abcdeg", false},
		{"", false},
	}
	for _, tt := range tests {
		k, ok := parseKey(taskPrefix, tt.id)
		if ok != tt.ok || ok && k.id(taskPrefix) != tt.id {
			t.Errorf("parseKey(%q) = %x, %v; want ok %v", tt.id, k, ok, tt.ok)
		}
	}
}

// Task ids come from clients: whatever parses prints back as itself.
func FuzzParseKey(f *testing.F) {
	f.Add("tsk_0123456789abcdef0123456789abcdef")
	f.Add("tsk_")
	f.Add("TSK_0123456789abcdef0123456789abcdef")
	f.Fuzz(func(t *testing.T, id string) {
		if k, ok := parseKey(taskPrefix, id); ok && k.id(taskPrefix) != id {
			t.Fatalf("parseKey(%q) prints back as %q", id, k.id(taskPrefix))
		}
	})
}

// Rows across several chunks are found by id and keep their context,
// minted or chosen by the client, and their status.
func TestTaskTable(t *testing.T) {
	var tab taskTable
	const n = 2*entriesPerChunk + 7
	ids := make([]idKey, n)
	ctxs := make([]string, n)
	at := time.Date(2026, 12, 2, 8, 0, 0, 123, time.UTC)
	for i := range n {
		k, err := newKey(taskPrefix)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && bytes.Compare(k[:], ids[i-1][:]) <= 0 {
			t.Fatalf("id %d does not increase", i)
		}
		ids[i] = k
		switch i % 3 {
		case 0:
			ctxs[i], _ = newID(contextPrefix)
		case 1:
			ctxs[i] = "thread-" + fmt.Sprint(i/30) // one client's thread, task after task
		default:
			ctxs[i] = strings.Repeat("c", i) // longer than a chunk's tail, at times
		}
		row := tab.add(entry{id: k}, ctxs[i])
		ts := at.Add(time.Duration(i))
		tab.at(row).setStatus(a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: &ts})
	}
	for i, k := range ids {
		row, ok := tab.find(k)
		if !ok || row != i {
			t.Fatalf("find(id %d) = %d, %v", i, row, ok)
		}
		e := tab.at(row)
		if got := tab.contextID(e); got != ctxs[i] {
			t.Fatalf("row %d: context %.40q, want %.40q", i, got, ctxs[i])
		}
		if !newContextMatcher(ctxs[i]).matches(&tab, e) || newContextMatcher(ctxs[i]+"x").matches(&tab, e) {
			t.Fatalf("row %d: the context filter does not match its own context alone", i)
		}
		s := e.status()
		if s.State != a2a.TaskStateCompleted || !s.Timestamp.Equal(at.Add(time.Duration(i))) {
			t.Fatalf("row %d: status %s at %v", i, s.State, s.Timestamp)
		}
	}
	if _, ok := tab.find(idKey{0xff}); ok {
		t.Error("found an id never added")
	}
	if len(tab.chunks) != 3 || cap(tab.chunks[1]) != entriesPerChunk {
		t.Errorf("%d chunks, the second of %d entries; want 3 of %d", len(tab.chunks), cap(tab.chunks[1]), entriesPerChunk)
	}
}

// The ring answers the newest replies and frees a chunk once every reply
// in it was forgotten.
func TestReplyRing(t *testing.T) {
	var r replyRing
	blob := func(i int) []byte { return bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i) }
	const keep = 100
	var serials []uint64
	for i := range 1000 {
		serials = append(serials, r.add(blob(i)))
		for r.len() > keep {
			r.forgetOldest()
		}
	}
	keptBytes := 0
	for i, s := range serials {
		got := r.get(s)
		keptBytes += len(got)
		if recent := i >= len(serials)-keep; recent != (got != nil) || recent && !bytes.Equal(got, blob(i)) {
			t.Fatalf("reply %d (recent: %v): %d bytes", i, recent, len(got))
		}
	}
	held := 0
	for _, c := range r.chunks {
		held += cap(c)
	}
	// Beyond the kept bytes, at most the tail of the chunk being filled
	// and of the oldest chunk.
	if max := keptBytes + 2*replyChunk; held > max {
		t.Errorf("the ring holds %d bytes for %d replies, want at most %d", held, keep, max)
	}
	big := bytes.Repeat([]byte("z"), 3*replyChunk)
	if s := r.add(big); !bytes.Equal(r.get(s), big) {
		t.Error("a reply larger than a chunk does not read back")
	}
	if r.get(0) != nil || r.get(r.next) != nil {
		t.Error("a serial never issued reads a reply")
	}
}
