package wasip2

import (
	"context"
	"math"
	"time"

	"github.com/mur-go/mur/engine/wit"
)

// monoClock is the monotonic clock of every store whose WASI functions one
// Register defined: nanoseconds from one origin, taken at Register. An
// origin per Ctx would let a store restored from a snapshot read a time
// below the one its initialisation read and baked in (the snapshot's
// store began earlier), so time would step back. Go's time.Time carries a
// monotonic reading, so wall-clock jumps don't leak in.
type monoClock struct{ origin time.Time }

func (m monoClock) now() uint64 { return uint64(time.Since(m.origin)) }

// at converts an instant back to a time.Time usable with timers.
func (m monoClock) at(instant uint64) time.Time {
	return m.origin.Add(time.Duration(min(instant, math.MaxInt64)))
}

// datetime is wasi:clocks/wall-clock.datetime.
type datetime struct {
	Seconds     uint64
	Nanoseconds uint32
}

// datetimeOf is t as a datetime; times before 1970 are its origin.
func datetimeOf(t time.Time) datetime {
	if t.Before(time.Unix(0, 0)) {
		return datetime{}
	}
	return datetime{Seconds: uint64(t.Unix()), Nanoseconds: uint32(t.Nanosecond())}
}

func (h *host) registerClocks() {
	t, clock := h.t, h.clock
	const mono = "wasi:clocks/monotonic-clock"
	h.uses(mono, t.pollable)
	def0(h, mono, "now", fn(wit.U64), func(ctx context.Context, c *Ctx) (uint64, error) {
		return clock.now(), nil
	})
	def0(h, mono, "resolution", fn(wit.U64), func(ctx context.Context, c *Ctx) (uint64, error) {
		return 1, nil
	})
	def1(h, mono, "subscribe-instant", fn(own(t.pollable), param("when", wit.U64)), func(ctx context.Context, c *Ctx, when uint64) (*pollable, error) {
		return &pollable{src: timerSource{at: clock.at(when)}}, nil
	})
	def1(h, mono, "subscribe-duration", fn(own(t.pollable), param("when", wit.U64)), func(ctx context.Context, c *Ctx, d uint64) (*pollable, error) {
		return &pollable{src: timerSource{at: clock.at(clock.now() + min(d, math.MaxInt64/2))}}, nil
	})

	const wall = "wasi:clocks/wall-clock"
	def0(h, wall, "now", fn(t.datetime), func(ctx context.Context, c *Ctx) (datetime, error) {
		return datetimeOf(time.Now()), nil
	})
	def0(h, wall, "resolution", fn(t.datetime), func(ctx context.Context, c *Ctx) (datetime, error) {
		return datetime{Nanoseconds: 1}, nil
	})
}
