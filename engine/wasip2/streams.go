package wasip2

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mur-go/mur/engine/wit"
)

// inStream is the host side of an input-stream.
type inStream interface {
	// read fills p with bytes available now and says how many, possibly
	// none; io.EOF means the stream is closed. p is the store's scratch
	// buffer (Ctx.scratch), so sources need not allocate.
	read(p []byte) (int, error)
	pollSource // ready when read would return data, EOF or an error
}

// outStream is the host side of an output-stream.
type outStream interface {
	// checkWrite is how many bytes write accepts now (0: wait for the
	// pollable); io.EOF means closed.
	checkWrite() (int, error)
	write(b []byte) error
	// flush starts flushing buffered bytes; checkWrite reports 0 until done.
	flush() error
	pollSource // ready when checkWrite would return non-zero or an error
}

// okUnit is result<_, E>'s ok value, boxed once: the stream calls the
// preview1 adapter makes per 4 KiB of output then allocate nothing for it.
var okUnit any = wit.Ok(nil)

// okMaxChunk is check-write's answer for streams that never push back
// (files, stdout), boxed once for the same reason.
var okMaxChunk any = wit.Ok(uint64(maxChunk))

// maxChunk bounds a single read or write-budget so a guest asking for
// 2^64 bytes cannot make the host allocate it.
const maxChunk = 1 << 20

// inputStream and outputStream are the resource objects; budget is what
// the last check-write permitted, so write can enforce it.
type inputStream struct {
	s      inStream
	closed bool // EOF or a failure was reported: later reads say closed
	// most bounds the next read (readSize).
	most int
}

// firstRead is what a stream's first read returns at most. A guest asks
// for far more than a reply usually holds (64 KiB, say), and the buffer is
// allocated per store; so reads start small and double each time one
// comes back full, up to what the guest asked for. A read returning less
// than asked is the WASI contract, and a body of megabytes costs only a
// few more reads.
const firstRead = 4 << 10

// readSize is how many bytes the stream's next read of up to n returns.
func (s *inputStream) readSize(n int) int {
	if s.most == 0 {
		s.most = firstRead
	}
	return min(n, s.most)
}

// filled records a read of got bytes: one that returned all readSize
// allows lets the next return twice as much.
func (s *inputStream) filled(got int) {
	if got == s.most && s.most < maxChunk {
		s.most *= 2
	}
}

type outputStream struct {
	s      outStream
	budget int
	closed bool
}

func (s *inputStream) drop() {
	if d, ok := s.s.(dropper); ok {
		d.drop()
	}
}

func (s *outputStream) drop() {
	if d, ok := s.s.(dropper); ok {
		d.drop()
	}
}

// ioError is the host object behind a wasi:io/error error.
type ioError struct{ err error }

// streamErr converts a Go error to stream-error: EOF is closed, anything
// else last-operation-failed with an error resource the guest can inspect.
func (c *Ctx) streamErr(t *types, err error) wit.ResultValue {
	if errors.Is(err, io.EOF) {
		return wit.Err(wit.VariantValue{Case: 1})
	}
	return wit.Err(wit.VariantValue{Case: 0, Value: c.newRes(t.ioError, &ioError{err: err})})
}

// bytesIn is an input stream over fixed bytes (stdin).
type bytesIn struct {
	alwaysReady
	b []byte
}

func (s *bytesIn) read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

// readInto reads what s has now into p and returns the filled part; data
// read takes precedence over an error that came with it.
func readInto(s inStream, p []byte) ([]byte, error) {
	n, err := s.read(p)
	if n > 0 {
		return p[:n], nil
	}
	return p[:0], err
}

// blockingRead reads at least one byte into p unless the stream is
// closed.
func blockingRead(ctx context.Context, s inStream, p []byte) ([]byte, error) {
	for {
		b, err := readInto(s, p)
		if len(b) > 0 || err != nil || len(p) == 0 {
			return b, err
		}
		if err := wait(ctx, s); err != nil {
			return nil, err
		}
	}
}

// blockingWrite writes all of b, waiting for budget as needed, then flushes
// and waits for the flush to finish.
func blockingWrite(ctx context.Context, s outStream, b []byte) error {
	for len(b) > 0 {
		n, err := s.checkWrite()
		if err != nil {
			return err
		}
		if n == 0 {
			if err := wait(ctx, s); err != nil {
				return err
			}
			continue
		}
		n = min(n, len(b))
		if err := s.write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
	}
	return blockingFlush(ctx, s)
}

func blockingFlush(ctx context.Context, s outStream) error {
	if err := s.flush(); err != nil {
		return err
	}
	for {
		n, err := s.checkWrite()
		if err != nil || n > 0 {
			return err
		}
		if err := wait(ctx, s); err != nil {
			return err
		}
	}
}

// clampLen converts a guest length to an int no larger than maxChunk.
func clampLen(v any) int {
	n, _ := v.(uint64)
	return int(min(n, maxChunk))
}

// ctxDone reports whether err is the call context ending: that must trap
// rather than become a stream error the guest could ignore.
func ctxDone(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

func (h *host) registerIO() {
	t := h.t
	h.resource("wasi:io/error", t.ioError)
	h.method("wasi:io/error", "error", "to-debug-string", fn(wit.String, self(t.ioError)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		e, err := res[*ioError](c, a[0])
		if err != nil {
			return nil, err
		}
		return e.err.Error(), nil
	})
	h.registerPoll()

	const iface = "wasi:io/streams"
	h.resource(iface, t.inputStream)
	h.resource(iface, t.outputStream)
	h.uses(iface, t.ioError, t.pollable)
	bytesRes := result(list(wit.U8), t.streamError)
	u64Res := result(wit.U64, t.streamError)
	unitRes := result(nil, t.streamError)
	inSelf, outSelf := self(t.inputStream), self(t.outputStream)

	read := func(block bool) hostFn {
		return func(ctx context.Context, c *Ctx, a []any) (any, error) {
			s, err := res[*inputStream](c, a[0])
			if err != nil {
				return nil, err
			}
			if s.closed {
				return wit.Err(wit.VariantValue{Case: 1}), nil
			}
			p := c.scratch(s.readSize(clampLen(a[1])))
			var b []byte
			if block {
				b, err = blockingRead(ctx, s.s, p)
			} else {
				b, err = readInto(s.s, p)
			}
			s.filled(len(b))
			if err != nil {
				if ctxDone(ctx, err) {
					return nil, err
				}
				s.closed = true
				return c.streamErr(t, err), nil
			}
			return wit.Ok(b), nil
		}
	}
	skip := func(block bool) hostFn {
		r := read(block)
		return func(ctx context.Context, c *Ctx, a []any) (any, error) {
			v, err := r(ctx, c, a)
			if err != nil {
				return nil, err
			}
			rv := v.(wit.ResultValue)
			if rv.Err {
				return rv, nil
			}
			return wit.Ok(uint64(len(rv.Value.([]byte)))), nil
		}
	}
	h.method(iface, "input-stream", "read", fn(bytesRes, inSelf, param("len", wit.U64)), read(false))
	h.method(iface, "input-stream", "blocking-read", fn(bytesRes, inSelf, param("len", wit.U64)), read(true))
	h.method(iface, "input-stream", "skip", fn(u64Res, inSelf, param("len", wit.U64)), skip(false))
	h.method(iface, "input-stream", "blocking-skip", fn(u64Res, inSelf, param("len", wit.U64)), skip(true))
	h.method(iface, "input-stream", "subscribe", fn(own(t.pollable), inSelf), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		s, err := res[*inputStream](c, a[0])
		if err != nil {
			return nil, err
		}
		return c.subscribe(t, s.s), nil
	})

	// out wraps an output-stream operation: it finds the stream, refuses a
	// closed one and turns Go errors into stream-error (or a trap when the
	// call context ended).
	out := func(op func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error)) hostFn {
		return func(ctx context.Context, c *Ctx, a []any) (any, error) {
			s, err := res[*outputStream](c, a[0])
			if err != nil {
				return nil, err
			}
			if s.closed {
				return wit.Err(wit.VariantValue{Case: 1}), nil
			}
			v, err := op(ctx, c, s, a)
			if err != nil {
				var trap *budgetError
				if ctxDone(ctx, err) || errors.As(err, &trap) {
					return nil, err
				}
				s.closed = true
				return c.streamErr(t, err), nil
			}
			return v, nil
		}
	}
	h.method(iface, "output-stream", "check-write", fn(u64Res, outSelf), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		n, err := s.s.checkWrite()
		if err != nil {
			return nil, err
		}
		s.budget = min(n, maxChunk)
		if s.budget == maxChunk {
			return okMaxChunk, nil
		}
		return wit.Ok(uint64(s.budget)), nil
	}))
	h.method(iface, "output-stream", "write", fn(unitRes, outSelf, param("contents", list(wit.U8))), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		b, _ := a[1].([]byte)
		if len(b) > s.budget {
			return nil, &budgetError{n: len(b), budget: s.budget}
		}
		s.budget -= len(b)
		if g, ok := s.s.(interface{ give([]byte) error }); ok {
			return okUnit, g.give(b) // b is this call's copy of the guest's bytes
		}
		return okUnit, s.s.write(b)
	}))
	h.method(iface, "output-stream", "blocking-write-and-flush", fn(unitRes, outSelf, param("contents", list(wit.U8))), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		b, _ := a[1].([]byte)
		s.budget = 0
		return okUnit, blockingWrite(ctx, s.s, b)
	}))
	h.method(iface, "output-stream", "flush", fn(unitRes, outSelf), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		s.budget = 0
		return okUnit, s.s.flush()
	}))
	h.method(iface, "output-stream", "blocking-flush", fn(unitRes, outSelf), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		s.budget = 0
		return okUnit, blockingFlush(ctx, s.s)
	}))
	h.method(iface, "output-stream", "subscribe", fn(own(t.pollable), outSelf), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		s, err := res[*outputStream](c, a[0])
		if err != nil {
			return nil, err
		}
		return c.subscribe(t, s.s), nil
	})
	h.method(iface, "output-stream", "write-zeroes", fn(unitRes, outSelf, param("len", wit.U64)), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		n, _ := a[1].(uint64)
		if n > uint64(s.budget) {
			return nil, &budgetError{n: int(min(n, 1<<62)), budget: s.budget}
		}
		s.budget -= int(n)
		return okUnit, s.s.write(make([]byte, n))
	}))
	h.method(iface, "output-stream", "blocking-write-zeroes-and-flush", fn(unitRes, outSelf, param("len", wit.U64)), out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
		n, _ := a[1].(uint64)
		s.budget = 0
		for n > 0 {
			k := min(n, maxChunk)
			if err := blockingWrite(ctx, s.s, make([]byte, k)); err != nil {
				return nil, err
			}
			n -= k
		}
		return okUnit, blockingFlush(ctx, s.s)
	}))
	splice := func(block bool) hostFn {
		return out(func(ctx context.Context, c *Ctx, s *outputStream, a []any) (any, error) {
			src, err := res[*inputStream](c, a[1])
			if err != nil {
				return nil, err
			}
			if src.closed {
				return wit.Err(wit.VariantValue{Case: 1}), nil
			}
			n := clampLen(a[2])
			s.budget = 0
			budget, err := s.s.checkWrite()
			if err != nil {
				return nil, err
			}
			if block && budget == 0 {
				if err := wait(ctx, s.s); err != nil {
					return nil, err
				}
				if budget, err = s.s.checkWrite(); err != nil {
					return nil, err
				}
			}
			p := c.scratch(min(n, budget))
			var b []byte
			if block {
				b, err = blockingRead(ctx, src.s, p)
			} else {
				b, err = readInto(src.s, p)
			}
			if err != nil {
				if ctxDone(ctx, err) {
					return nil, err
				}
				// The source's failure is reported as this call's result;
				// the destination stays usable.
				src.closed = true
				return c.streamErr(t, err), nil
			}
			if err := s.s.write(b); err != nil {
				return nil, err
			}
			if block {
				if err := blockingFlush(ctx, s.s); err != nil {
					return nil, err
				}
			}
			return wit.Ok(uint64(len(b))), nil
		})
	}
	h.method(iface, "output-stream", "splice", fn(u64Res, outSelf, param("src", borrow(t.inputStream)), param("len", wit.U64)), splice(false))
	h.method(iface, "output-stream", "blocking-splice", fn(u64Res, outSelf, param("src", borrow(t.inputStream)), param("len", wit.U64)), splice(true))
}

// budgetError traps a write larger than check-write permitted, as WASI
// requires.
type budgetError struct{ n, budget int }

func (e *budgetError) Error() string {
	return fmt.Sprintf("wasi:io/streams: write of %d bytes exceeds the %d permitted by check-write", e.n, e.budget)
}
