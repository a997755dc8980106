package cli

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
)

// gate is a stderr that takes nothing until open is closed; entered
// says a write is waiting at it.
type gate struct {
	open, entered chan struct{}
	once          sync.Once
	mu            sync.Mutex
	b             bytes.Buffer
}

func newGate() *gate { return &gate{open: make(chan struct{}), entered: make(chan struct{})} }

func (g *gate) Write(p []byte) (int, error) {
	g.once.Do(func() { close(g.entered) })
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.Write(p)
}

func (g *gate) String() string { g.mu.Lock(); defer g.mu.Unlock(); return g.b.String() }

// A stderr that takes nothing never holds the loop up: Observe goes on
// while the write is stuck, what does not fit the queue is dropped and
// counted, and once stderr takes writes again the count is told before
// the next line.
func TestProgressNeverWaitsForStderr(t *testing.T) {
	g := newGate()
	p := newRunProgress(g, false, nil, time.Now)
	p.Observe(observe.Event{Kind: observe.TaskStart, TaskID: "t"})
	<-g.entered
	const calls = 5000
	for i := range calls {
		p.Observe(observe.Event{Kind: observe.ToolStart, Name: "tool", Input: strings.Repeat("x", 100)})
		p.Observe(observe.Event{Kind: observe.ToolEnd, Name: "tool", Status: "ok", Output: strconv.Itoa(i)})
	}
	close(g.open)
	p.waitDrained()
	p.Observe(observe.Event{Kind: observe.TaskEnd, TaskID: "t", Status: "ok"})
	p.Close()

	out := g.String()
	shown := strings.Count(out, "  tool tool ")
	m := regexp.MustCompile(`\n  \((\d+) progress updates not shown: stderr was not keeping up\)\ntask t ok · 0 turns · 0 in, 0 out tokens · 0ms\n$`).FindStringSubmatch(out)
	if !strings.HasPrefix(out, "task t\n") || m == nil {
		t.Fatalf("the output does not say what it dropped:\n%.300s\n…\n%s", out, out[max(0, len(out)-300):])
	}
	if dropped, _ := strconv.Atoi(m[1]); dropped == 0 || shown+dropped != calls {
		t.Errorf("%d tool lines shown and %s dropped, of %d", shown, m[1], calls)
	}
	if len(out) > 2*progressQueue {
		t.Errorf("%d bytes went out for a queue of %d", len(out), progressQueue)
	}
}

// Close gives a stderr that takes no write progressStall, then lets mur
// print its own lines, abandoning the progress still queued.
func TestProgressCloseGivesUpOnAStuckStderr(t *testing.T) {
	g := newGate()
	defer close(g.open)
	p := newRunProgress(g, false, nil, time.Now)
	p.mu.Lock()
	p.stall = 10 * time.Millisecond
	p.mu.Unlock()
	p.Observe(observe.Event{Kind: observe.TaskStart, TaskID: "t"})
	<-g.entered
	p.Observe(observe.Event{Kind: observe.TaskEnd, TaskID: "t", Status: "ok"})
	p.Close()
	var after bytes.Buffer
	if _, err := fmt.Fprint(p.pass(&after), "status:  ok\n"); err != nil || after.String() != "status:  ok\n" {
		t.Errorf("a write after Close: %q, %v", after.String(), err)
	}
}
