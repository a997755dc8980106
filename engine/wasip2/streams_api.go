package wasip2

import (
	"context"
	"errors"
	"io"

	"github.com/mur-go/mur/engine/wit"
)

// streamError is wasi:io/streams.stream-error.
type streamError struct {
	Case                uint32 // streamFailed or streamClosed
	LastOperationFailed *ioError
}

const (
	streamFailed uint32 = iota
	streamClosed
)

// streamRes is the result of a stream operation.
type streamRes[T any] = res[T, streamError]

func closedRes[T any]() streamRes[T] { return errv[T](streamError{Case: streamClosed}) }

// streamErr converts a Go error to stream-error: EOF is closed, anything
// else last-operation-failed with an error resource the guest can inspect.
func streamErr(err error) streamError {
	if errors.Is(err, io.EOF) {
		return streamError{Case: streamClosed}
	}
	return streamError{Case: streamFailed, LastOperationFailed: &ioError{err: err}}
}

func (h *host) registerIO() {
	t := h.t
	h.resource("wasi:io/error", t.ioError)
	def1(h, "wasi:io/error", method("error", "to-debug-string"), fn(wit.String, self(t.ioError)), func(ctx context.Context, c *Ctx, e *ioError) (string, error) {
		return e.err.Error(), nil
	})
	h.registerPoll()
	h.registerInputStream()
	h.registerOutputStream()
}

func (h *host) registerInputStream() {
	t := h.t
	const iface = "wasi:io/streams"
	h.resource(iface, t.inputStream)
	h.uses(iface, t.ioError, t.pollable)
	bytesRes, u64Res := result(list(wit.U8), t.streamError), result(wit.U64, t.streamError)
	inSelf, n := self(t.inputStream), param("len", wit.U64)
	in := func(name string) string { return method("input-stream", name) }
	def2(h, iface, in("read"), fn(bytesRes, inSelf, n), func(ctx context.Context, c *Ctx, s *inputStream, n uint64) (streamRes[[]byte], error) {
		return s.read(ctx, c, n, false)
	})
	def2(h, iface, in("blocking-read"), fn(bytesRes, inSelf, n), func(ctx context.Context, c *Ctx, s *inputStream, n uint64) (streamRes[[]byte], error) {
		return s.read(ctx, c, n, true)
	})
	def2(h, iface, in("skip"), fn(u64Res, inSelf, n), func(ctx context.Context, c *Ctx, s *inputStream, n uint64) (streamRes[uint64], error) {
		return s.skip(ctx, c, n, false)
	})
	def2(h, iface, in("blocking-skip"), fn(u64Res, inSelf, n), func(ctx context.Context, c *Ctx, s *inputStream, n uint64) (streamRes[uint64], error) {
		return s.skip(ctx, c, n, true)
	})
	def1(h, iface, in("subscribe"), fn(own(t.pollable), inSelf), func(ctx context.Context, c *Ctx, s *inputStream) (*pollable, error) {
		return &pollable{src: s.s}, nil
	})
}

// read is input-stream.read, and blocking-read when block is set.
func (s *inputStream) read(ctx context.Context, c *Ctx, n uint64, block bool) (streamRes[[]byte], error) {
	if s.closed {
		return closedRes[[]byte](), nil
	}
	p := c.scratch(s.readSize(clampLen(n)))
	var (
		b   []byte
		err error
	)
	if block {
		b, err = blockingRead(ctx, s.s, p)
	} else {
		b, err = readInto(s.s, p)
	}
	s.filled(len(b))
	if err != nil {
		if ctxDone(ctx, err) {
			return streamRes[[]byte]{}, err
		}
		s.closed = true
		return errv[[]byte](streamErr(err)), nil
	}
	return okv[streamError](b), nil
}

// skip is input-stream.skip and blocking-skip: a read whose bytes are
// counted, not returned.
func (s *inputStream) skip(ctx context.Context, c *Ctx, n uint64, block bool) (streamRes[uint64], error) {
	r, err := s.read(ctx, c, n, block)
	switch {
	case err != nil:
		return streamRes[uint64]{}, err
	case r.failed:
		return errv[uint64](r.e), nil
	}
	return okv[streamError](uint64(len(r.v))), nil
}

func (h *host) registerOutputStream() {
	t := h.t
	const iface = "wasi:io/streams"
	h.resource(iface, t.outputStream)
	u64Res, unitRes := result(wit.U64, t.streamError), result(nil, t.streamError)
	outSelf, n, contents := self(t.outputStream), param("len", wit.U64), param("contents", list(wit.U8))
	out := func(name string) string { return method("output-stream", name) }
	def1(h, iface, out("check-write"), fn(u64Res, outSelf), func(ctx context.Context, c *Ctx, s *outputStream) (streamRes[uint64], error) {
		r, err := outOp(ctx, s, s.permit)
		if err == nil && !r.failed && r.v == maxChunk {
			r.pre = okMaxChunk
		}
		return r, err
	})
	def2(h, iface, out("write"), fn(unitRes, outSelf, contents), func(ctx context.Context, c *Ctx, s *outputStream, b []byte) (streamRes[unit], error) {
		return outOp(ctx, s, func() (unit, error) { return unit{}, s.writePermitted(b) })
	})
	def2(h, iface, out("blocking-write-and-flush"), fn(unitRes, outSelf, contents), func(ctx context.Context, c *Ctx, s *outputStream, b []byte) (streamRes[unit], error) {
		return outOp(ctx, s, func() (unit, error) { s.budget = 0; return unit{}, blockingWrite(ctx, s.s, b) })
	})
	def1(h, iface, out("flush"), fn(unitRes, outSelf), func(ctx context.Context, c *Ctx, s *outputStream) (streamRes[unit], error) {
		return outOp(ctx, s, func() (unit, error) { s.budget = 0; return unit{}, s.s.flush() })
	})
	def1(h, iface, out("blocking-flush"), fn(unitRes, outSelf), func(ctx context.Context, c *Ctx, s *outputStream) (streamRes[unit], error) {
		return outOp(ctx, s, func() (unit, error) { s.budget = 0; return unit{}, blockingFlush(ctx, s.s) })
	})
	def1(h, iface, out("subscribe"), fn(own(t.pollable), outSelf), func(ctx context.Context, c *Ctx, s *outputStream) (*pollable, error) {
		return &pollable{src: s.s}, nil
	})
	def2(h, iface, out("write-zeroes"), fn(unitRes, outSelf, n), func(ctx context.Context, c *Ctx, s *outputStream, n uint64) (streamRes[unit], error) {
		return outOp(ctx, s, func() (unit, error) { return unit{}, s.writeZeroes(n) })
	})
	def2(h, iface, out("blocking-write-zeroes-and-flush"), fn(unitRes, outSelf, n), func(ctx context.Context, c *Ctx, s *outputStream, n uint64) (streamRes[unit], error) {
		return outOp(ctx, s, func() (unit, error) { return unit{}, s.blockingWriteZeroes(ctx, n) })
	})
	src := param("src", borrow(t.inputStream))
	def3(h, iface, out("splice"), fn(u64Res, outSelf, src, n), func(ctx context.Context, c *Ctx, s *outputStream, from *inputStream, n uint64) (streamRes[uint64], error) {
		return s.splice(ctx, c, from, n, false)
	})
	def3(h, iface, out("blocking-splice"), fn(u64Res, outSelf, src, n), func(ctx context.Context, c *Ctx, s *outputStream, from *inputStream, n uint64) (streamRes[uint64], error) {
		return s.splice(ctx, c, from, n, true)
	})
}

// okMaxChunk is check-write's answer for streams that never push back
// (files, stdout), lowered once: the preview1 adapter asks before every
// write, and boxing the answer each time cost two allocations.
var okMaxChunk any = wit.Ok(uint64(maxChunk))

// outOp runs an operation on an open output stream. Its Go error becomes
// a stream-error that closes the stream, except the call context ending
// and a write over check-write's permit, which trap.
func outOp[T any](ctx context.Context, s *outputStream, op func() (T, error)) (streamRes[T], error) {
	if s.closed {
		return closedRes[T](), nil
	}
	v, err := op()
	if err == nil {
		return okv[streamError](v), nil
	}
	var over *budgetError
	if ctxDone(ctx, err) || errors.As(err, &over) {
		return streamRes[T]{}, err
	}
	s.closed = true
	return errv[T](streamErr(err)), nil
}

// permit is check-write: how many bytes the next write may carry.
func (s *outputStream) permit() (uint64, error) {
	n, err := s.s.checkWrite()
	if err != nil {
		return 0, err
	}
	s.budget = min(n, maxChunk)
	return uint64(s.budget), nil
}

// writePermitted is write: b must fit in what check-write permitted.
func (s *outputStream) writePermitted(b []byte) error {
	if len(b) > s.budget {
		return &budgetError{n: len(b), budget: s.budget}
	}
	s.budget -= len(b)
	if g, ok := s.s.(interface{ give([]byte) error }); ok {
		return g.give(b) // b is this call's copy of the guest's bytes
	}
	return s.s.write(b)
}

func (s *outputStream) writeZeroes(n uint64) error {
	if n > uint64(s.budget) {
		return &budgetError{n: int(min(n, 1<<62)), budget: s.budget}
	}
	s.budget -= int(n)
	return s.s.write(make([]byte, n))
}

func (s *outputStream) blockingWriteZeroes(ctx context.Context, n uint64) error {
	s.budget = 0
	for n > 0 {
		k := min(n, maxChunk)
		if err := blockingWrite(ctx, s.s, make([]byte, k)); err != nil {
			return err
		}
		n -= k
	}
	return blockingFlush(ctx, s.s)
}

// splice is splice and blocking-splice: what src has now (blocking: at
// least a byte), up to n and to what s accepts, is written to s.
func (s *outputStream) splice(ctx context.Context, c *Ctx, src *inputStream, n uint64, block bool) (streamRes[uint64], error) {
	if s.closed || src.closed {
		return closedRes[uint64](), nil
	}
	room, err := outOp(ctx, s, func() (int, error) { return s.room(ctx, block) })
	if err != nil || room.failed {
		return errv[uint64](room.e), err
	}
	p := c.scratch(min(clampLen(n), room.v))
	var b []byte
	if block {
		b, err = blockingRead(ctx, src.s, p)
	} else {
		b, err = readInto(src.s, p)
	}
	if err != nil {
		if ctxDone(ctx, err) {
			return streamRes[uint64]{}, err
		}
		// The source's failure is reported as this call's result; the
		// destination stays usable.
		src.closed = true
		return errv[uint64](streamErr(err)), nil
	}
	return outOp(ctx, s, func() (uint64, error) {
		if err := s.s.write(b); err != nil {
			return 0, err
		}
		if block {
			if err := blockingFlush(ctx, s.s); err != nil {
				return 0, err
			}
		}
		return uint64(len(b)), nil
	})
}

// room is how many bytes s accepts now; blocking, it waits for some.
func (s *outputStream) room(ctx context.Context, block bool) (int, error) {
	s.budget = 0
	n, err := s.s.checkWrite()
	if err != nil || n > 0 || !block {
		return n, err
	}
	if err := wait(ctx, s.s); err != nil {
		return 0, err
	}
	return s.s.checkWrite()
}
