package cli

import (
	"io"
	"time"
)

// progressQueue is how many bytes of progress may wait for a slow
// stderr; past it, pieces are dropped (and counted) rather than the
// agent loop made to wait.
const progressQueue = 32 << 10

// progressStall is how long Close waits for stderr to take one more
// write before it abandons what is still queued: a terminal scrolled
// back or stopped (Ctrl-S), or a pipe nobody reads, must not keep the
// run from ending.
const progressStall = time.Second

// drain is the writer goroutine of runProgress: it hands the queue
// to stderr, one batch at a time, while the loop goes on queueing.
func (p *runProgress) drain() {
	p.mu.Lock()
	for {
		for !p.closed && (len(p.queue) == 0 || p.passing) {
			p.cond.Wait()
		}
		if p.closed {
			p.mu.Unlock()
			return
		}
		b := p.queue
		p.queue, p.spare = p.spare[:0], nil
		p.writing = true
		p.mu.Unlock()
		// Progress is best effort: a failed write loses this batch and
		// the run goes on.
		_, _ = p.dst.Write(b)
		p.mu.Lock()
		p.writing = false
		p.spare = b[:0]
		p.cond.Broadcast()
		select {
		case p.wrote <- struct{}{}:
		default:
		}
	}
}

// offer queues b if it fits, never waiting; it reports whether it did.
// The caller holds p.mu.
func (p *runProgress) offer(b []byte) bool {
	if p.closed || len(p.queue)+len(b) > p.maxQueue {
		return false
	}
	p.queue = append(p.queue, b...)
	p.cond.Broadcast()
	return true
}

// Close ends the progress before mur prints its status lines: the open
// line ended, the status line erased, and the queue written, waiting as
// long as stderr keeps taking writes (progressStall at most for each).
// Writes to the passthrough writers go straight through afterwards.
func (p *runProgress) Close() {
	p.closeOnce.Do(func() {
		close(p.stop)
		<-p.ticking
		p.mu.Lock()
		p.task = nil
		if b := p.leaveLine(nil); len(b) > 0 {
			// Not counted against the queue's bound: it is a few bytes,
			// and without it the status lines would follow a stale line.
			p.queue = append(p.queue, b...)
			p.statusShown, p.owner = false, lineFree
			p.cond.Broadcast()
		}
		p.mu.Unlock()
		p.waitDrained()
		p.mu.Lock()
		p.closed, p.queue = true, nil
		p.cond.Broadcast()
		p.mu.Unlock()
	})
}

// waitDrained waits until the queue is written, or until stderr took no
// write for progressStall.
func (p *runProgress) waitDrained() {
	t := time.NewTimer(p.stall)
	defer t.Stop()
	for {
		p.mu.Lock()
		idle := len(p.queue) == 0 && !p.writing
		p.mu.Unlock()
		if idle {
			return
		}
		select {
		case <-p.wrote:
			t.Reset(p.stall)
		case <-t.C:
			return
		}
	}
}

// passthrough is one of mur's own writers (stderr, and stdout when it is
// the same terminal) while the progress is on: what it writes goes out after
// the progress queued before it, with the status line erased first and
// an open line of streamed text ended, so the two never share a line.
// It waits for the queue as a write to stderr would wait for stderr.
type passthrough struct {
	p *runProgress
	w io.Writer
}

func (t passthrough) Write(b []byte) (int, error) {
	p := t.p
	p.mu.Lock()
	for !p.closed && (len(p.queue) > 0 || p.writing || p.passing) {
		p.cond.Wait()
	}
	if p.closed {
		p.mu.Unlock()
		return t.w.Write(b)
	}
	var pre []byte
	if p.statusShown {
		pre = eraseLine(pre)
	} else if p.owner == lineStream {
		pre = append(pre, '\n')
	}
	p.statusShown, p.passing = false, true
	if len(b) > 0 {
		p.owner = lineFree
		if b[len(b)-1] != '\n' {
			p.owner = linePassed
		}
	}
	p.mu.Unlock()

	var err error
	if len(pre) > 0 {
		_, err = t.w.Write(pre)
	}
	n := 0
	if err == nil {
		n, err = t.w.Write(b)
	}

	p.mu.Lock()
	p.passing = false
	p.drawStatus()
	p.cond.Broadcast()
	p.mu.Unlock()
	return n, err
}
