package wasip2

import (
	"context"
	"errors"
	"fmt"
	"io"
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
func clampLen(n uint64) int {
	return int(min(n, maxChunk))
}

// ctxDone reports whether err is the call context ending: that must trap
// rather than become a stream error the guest could ignore.
func ctxDone(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// budgetError traps a write larger than check-write permitted, as WASI
// requires.
type budgetError struct{ n, budget int }

func (e *budgetError) Error() string {
	return fmt.Sprintf("wasi:io/streams: write of %d bytes exceeds the %d permitted by check-write", e.n, e.budget)
}
