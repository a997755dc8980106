package wasip2

import (
	"context"
	"io"
	"sync"
	"time"
)

// pipe carries a body between a guest stream and a goroutine of net/http,
// with a bounded buffer for backpressure. One side writes, the other reads;
// both sides can wait on it (guests through pollables, goroutines by
// blocking).
type pipe struct {
	mu     sync.Mutex
	buf    []byte // unread bytes are buf[r:]
	r      int
	limit  int
	closed bool  // writer finished: EOF once buf drains
	err    error // reader gave up or the writer failed: reported to both sides
	sig    signal
}

func newPipe(limit int) *pipe { return &pipe{limit: limit} }

// buffered, put and take manage buf, with p.mu held. Consumed bytes are
// reclaimed (reset when drained, compacted when room runs out) so a
// steady stream reuses one array instead of reallocating as it slides.
func (p *pipe) buffered() int { return len(p.buf) - p.r }

func (p *pipe) put(b []byte) {
	if p.r > 0 && len(p.buf)+len(b) > cap(p.buf) {
		p.buf = p.buf[:copy(p.buf, p.buf[p.r:])]
		p.r = 0
	}
	p.buf = append(p.buf, b...)
}

func (p *pipe) take(b []byte) int {
	n := copy(b, p.buf[p.r:])
	p.r += n
	if p.r == len(p.buf) {
		p.buf, p.r = p.buf[:0], 0
	}
	return n
}

// Guest-facing writer side (outStream).

func (p *pipe) checkWrite() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return 0, p.err
	}
	if p.closed {
		return 0, io.EOF
	}
	return max(p.limit-p.buffered(), 0), nil
}

func (p *pipe) write(b []byte) error {
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return p.err
	}
	p.put(b)
	p.mu.Unlock()
	p.sig.notify()
	return nil
}

// give is write for bytes no one else holds or will change (lifted from
// the guest for this call): an empty pipe takes them as its buffer
// instead of copying them in, so a request body written in one piece is
// not copied between the guest and the socket. The buffer is capped at
// b's length, so a later put never writes past it.
func (p *pipe) give(b []byte) error {
	p.mu.Lock()
	if p.err != nil || p.buffered() != 0 {
		p.mu.Unlock()
		return p.write(b)
	}
	p.buf, p.r = b[:len(b):len(b)], 0
	p.mu.Unlock()
	p.sig.notify()
	return nil
}

// flush has nothing to do: written bytes are already the reader's.
func (p *pipe) flush() error {
	_, err := p.checkWrite()
	return err
}

// state: a writer is ready with room to write; a reader when data or the
// end is there. A pipe serves one direction, so the guest side asks the
// question that fits it: see pipeIn and the outStream methods.
func (p *pipe) state() (bool, <-chan struct{}, time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil || p.closed || p.buffered() < p.limit {
		return true, nil, time.Time{}
	}
	return false, p.sig.wait(), time.Time{}
}

// closeWrite ends the stream: the reader sees EOF after the buffer, or err.
func (p *pipe) closeWrite(err error) {
	p.mu.Lock()
	if err != nil && p.err == nil {
		p.err = err
	}
	p.closed = true
	p.mu.Unlock()
	p.sig.notify()
}

// Goroutine-facing reader side (io.Reader for a request body).

func (p *pipe) Read(b []byte) (int, error) {
	for {
		p.mu.Lock()
		if p.buffered() > 0 {
			n := p.take(b)
			p.mu.Unlock()
			p.sig.notify()
			return n, nil
		}
		if p.err != nil {
			defer p.mu.Unlock()
			return 0, p.err
		}
		if p.closed {
			p.mu.Unlock()
			return 0, io.EOF
		}
		ch := p.sig.wait()
		p.mu.Unlock()
		<-ch
	}
}

func (p *pipe) Close() error {
	p.mu.Lock()
	if p.err == nil && !p.closed {
		p.err = io.ErrClosedPipe
	}
	p.mu.Unlock()
	p.sig.notify()
	return nil
}

// Goroutine-facing writer side (response bodies): blocks for room.
func (p *pipe) writeBlocking(ctx context.Context, b []byte) error {
	for len(b) > 0 {
		p.mu.Lock()
		if p.err != nil {
			defer p.mu.Unlock()
			return p.err
		}
		room := p.limit - p.buffered()
		if room > 0 {
			n := min(room, len(b))
			p.put(b[:n])
			b = b[n:]
			p.mu.Unlock()
			p.sig.notify()
			continue
		}
		ch := p.sig.wait()
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// pipeIn is the guest's read side of a pipe (an input-stream).
type pipeIn struct {
	p      *pipe
	onDrop func()
}

func (s *pipeIn) read(b []byte) (int, error) {
	p := s.p
	p.mu.Lock()
	if p.buffered() > 0 {
		n := p.take(b)
		p.mu.Unlock()
		p.sig.notify()
		return n, nil
	}
	defer p.mu.Unlock()
	if p.err != nil {
		return 0, p.err
	}
	if p.closed {
		return 0, io.EOF
	}
	return 0, nil
}

func (s *pipeIn) state() (bool, <-chan struct{}, time.Time) {
	p := s.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.buffered() > 0 || p.err != nil || p.closed {
		return true, nil, time.Time{}
	}
	return false, p.sig.wait(), time.Time{}
}

func (s *pipeIn) drop() {
	s.p.Close()
	if s.onDrop != nil {
		s.onDrop()
	}
}
