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

func datetime(t time.Time) []any {
	if t.Before(time.Unix(0, 0)) {
		return []any{uint64(0), uint32(0)}
	}
	return []any{uint64(t.Unix()), uint32(t.Nanosecond())}
}

func (h *host) registerClocks() {
	t, clock := h.t, h.clock
	const mono = "wasi:clocks/monotonic-clock"
	h.uses(mono, t.pollable)
	h.fn(mono, "now", fn(wit.U64), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return clock.now(), nil
	})
	h.fn(mono, "resolution", fn(wit.U64), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return uint64(1), nil
	})
	h.fn(mono, "subscribe-instant", fn(own(t.pollable), param("when", wit.U64)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		when, _ := a[0].(uint64)
		return c.subscribe(t, timerSource{at: clock.at(when)}), nil
	})
	h.fn(mono, "subscribe-duration", fn(own(t.pollable), param("when", wit.U64)), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		d, _ := a[0].(uint64)
		return c.subscribe(t, timerSource{at: clock.at(clock.now() + min(d, math.MaxInt64/2))}), nil
	})

	const wall = "wasi:clocks/wall-clock"
	h.fn(wall, "now", fn(t.datetime), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return datetime(time.Now()), nil
	})
	h.fn(wall, "resolution", fn(t.datetime), func(ctx context.Context, c *Ctx, a []any) (any, error) {
		return []any{uint64(0), uint32(1)}, nil
	})
}
