package cli

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// How the progress puts its pieces on stderr. Each piece is built for what
// the terminal shows once the queue is written (statusShown, owner), and
// that state moves on only if the piece was queued: a dropped piece
// leaves the terminal, and so the state, as they were. The caller holds
// p.mu.

// line writes s on a line of its own, after telling of pieces dropped
// since the last line, then redraws the status line.
func (p *runProgress) line(s string) {
	b := p.leaveLine(nil)
	if p.dropped > 0 {
		b = fmt.Appendf(b, "  (%d progress updates not shown: stderr was not keeping up)\n", p.dropped)
	}
	b = append(b, s...)
	b = append(b, '\n')
	if !p.offer(b) {
		p.dropped++
		return
	}
	p.statusShown, p.owner, p.dropped = false, lineFree, 0
	p.drawStatus()
}

// leaveLine appends to b what brings the cursor to the start of a free
// line: the status line erased, or the open line ended.
func (p *runProgress) leaveLine(b []byte) []byte {
	switch {
	case p.statusShown:
		return eraseLine(b)
	case p.owner != lineFree:
		return append(b, '\n')
	}
	return b
}

// text writes a streamed piece of the model's answer as it comes, each
// of its lines led by streamPrefix; the line stays open for the next
// piece until the text ends it or another line needs the cursor.
func (p *runProgress) text(piece string) {
	t := p.task
	whole, tail := splitRune(t.tail + piece)
	t.tail = tail
	s := streamText(whole)
	if s == "" {
		return
	}
	var b []byte
	owner := p.owner
	switch {
	case p.statusShown:
		b = eraseLine(b)
	case owner == linePassed:
		b, owner = append(b, '\n'), lineFree
	}
	for s != "" {
		if owner == lineFree {
			b, owner = append(b, streamPrefix...), lineStream
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			b = append(b, s...)
			break
		}
		b, s, owner = append(b, s[:i+1]...), s[i+1:], lineFree
	}
	if !p.offer(b) {
		p.dropped++
		return
	}
	p.statusShown, p.owner = false, owner
	p.drawStatus()
}

// drawStatus redraws the status line on a terminal, while a task runs
// and the cursor is on a free line.
func (p *runProgress) drawStatus() {
	if !p.tty || p.task == nil || p.owner != lineFree || p.closed {
		return
	}
	s := clip(p.statusText(), p.width()-1)
	if p.statusShown && s == p.shown {
		return
	}
	if p.offer(append(eraseLine(nil), s...)) {
		p.statusShown, p.shown = true, s
	}
}

// statusText is the status line: time since the task started, its turn,
// what it waits for and since when, and its tokens so far.
func (p *runProgress) statusText() string {
	t, now := p.task, p.now()
	parts := []string{"[" + clock(now.Sub(t.start)) + "]"}
	if t.model != "" {
		parts = append(parts, fmt.Sprintf("turn %d", t.turn+1))
	}
	if t.doing != "" {
		parts = append(parts, t.doing+" "+clock(now.Sub(t.since)))
	}
	if t.in+t.out > 0 {
		parts = append(parts, tokens(t.in, t.out, t.estimated))
	}
	return strings.Join(parts, " · ")
}

// clock is a running time: tenths of seconds under a minute.
func clock(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", max(d, 0).Seconds())
	}
	return span(d)
}

// clip cuts s to n characters, so the status line never wraps (a
// wrapped line would not be erased whole).
func clip(s string, n int) string {
	n = max(n, 1)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
