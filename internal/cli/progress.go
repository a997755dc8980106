package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mur-go/mur/internal/agent/observe"
)

// runProgress is mur run's live account of an agent capsule's run on
// stderr (package observe's events): a line for each task, turn, model
// answer and tool call, the model's text as it streams, and on a
// terminal a status line, redrawn in place, with the elapsed time, what
// the run waits for and the tokens so far. Observe only formats and
// queues: a goroutine writes the queue, so a slow or blocked stderr
// costs the loop nothing (progress drops pieces instead, and says so).
type runProgress struct {
	dst io.Writer
	// tty redraws the status line; width is the terminal's, in columns.
	tty   bool
	width func() int
	now   func() time.Time
	// maxQueue and stall are progressQueue and progressStall (tests
	// shrink them).
	maxQueue int
	stall    time.Duration

	mu   sync.Mutex
	cond *sync.Cond
	// queue is written by drain (spare is its last batch, reused);
	// writing is set while drain is in dst.Write, passing while a
	// passthrough writes.
	queue, spare     []byte
	writing, passing bool
	closed           bool
	closeOnce        sync.Once
	// stop ends the ticker, which closes ticking; wrote is signalled
	// after each batch drain writes.
	stop, ticking, wrote chan struct{}

	// What the terminal shows once the queue is written: whether the
	// status line is drawn (its text, to skip an identical redraw) and
	// whose text the cursor follows on an open line.
	statusShown bool
	shown       string
	owner       lineOwner
	// dropped counts the pieces a full queue refused, told at the next
	// line that fits.
	dropped int

	// task is the task under way, nil between tasks.
	task *taskView
}

// lineOwner is who left the cursor in the middle of a line.
type lineOwner uint8

const (
	lineFree   lineOwner = iota // at the start of a line
	lineStream                  // the model's streamed text
	linePassed                  // a passthrough write without its newline
)

// taskView is what the progress knows of the task under way.
type taskView struct {
	start time.Time
	turn  uint32
	// model is the model called; doing what the run waits for now
	// ("waiting for MODEL", "running TOOL", "compacting"), since when.
	model string
	doing string
	since time.Time
	// in and out are the task's tokens so far; estimated marks an input
	// count of mur's estimate; callIn is the current call's estimate.
	in, out   uint64
	estimated bool
	callIn    uint64
	// streamed is set once the current model call streamed text; tail
	// is a streamed rune split across pieces, held for the next.
	streamed bool
	tail     string
	// tool is the running tool call's input, cut short for its line.
	tool string
}

// streamPrefix leads each line of the model's text.
const streamPrefix = "  │ "

// newRunProgress starts the progress on dst: tty redraws a status line of
// width() columns, ten times a second, its times read from now.
func newRunProgress(dst io.Writer, tty bool, width func() int, now func() time.Time) *runProgress {
	p := &runProgress{dst: dst, tty: tty, width: width, now: now, maxQueue: progressQueue, stall: progressStall,
		stop: make(chan struct{}), ticking: make(chan struct{}), wrote: make(chan struct{}, 1)}
	p.cond = sync.NewCond(&p.mu)
	go p.drain()
	go p.tick()
	return p
}

// pass is w, written in turn with the progress (passthrough).
func (p *runProgress) pass(w io.Writer) io.Writer { return passthrough{p: p, w: w} }

// tick redraws the status line as time passes.
func (p *runProgress) tick() {
	defer close(p.ticking)
	if !p.tty {
		return
	}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.drawStatus()
			p.mu.Unlock()
		}
	}
}

// Observe renders e; it never waits for stderr.
func (p *runProgress) Observe(e observe.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if e.Time.IsZero() {
		e.Time = p.now()
	}
	if e.Kind == observe.TaskStart || p.task == nil {
		p.task = &taskView{start: e.Time}
	}
	t := p.task
	switch e.Kind {
	case observe.TaskStart:
		p.line(taskLine(e))
	case observe.ModelStart:
		t.turn, t.model, t.callIn, t.streamed = e.Turn, e.Name, e.InputTokens, false
		t.doing, t.since = "waiting for "+brief(e.Name, 40), e.Time
		p.line(fmt.Sprintf("turn %d · %s", e.Turn+1, brief(e.Name, 40)))
	case observe.ModelText:
		if e.Thinking {
			t.doing = brief(t.model, 40) + " thinking"
			p.drawStatus()
			return
		}
		t.streamed = true
		t.doing = brief(t.model, 40) + " writing"
		p.text(e.Text)
	case observe.ModelEnd:
		p.modelEnd(t, e)
	case observe.ToolStart:
		t.doing, t.since, t.tool = "running "+brief(e.Name, 40), e.Time, brief(e.Input, briefInput)
		p.drawStatus()
	case observe.ToolEnd:
		t.doing = ""
		p.line(toolLine(e, t.tool))
	case observe.CompactionStart:
		t.doing, t.since = "compacting", e.Time
		p.drawStatus()
	case observe.CompactionEnd:
		t.doing = ""
		p.line(fmt.Sprintf("  compaction · %s · %s", e.Status, span(e.Duration)))
	case observe.TaskEnd:
		p.task = nil
		p.line(taskEndLine(e, t.estimated))
	}
}
