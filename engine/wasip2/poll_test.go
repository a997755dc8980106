package wasip2

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/wit"
)

// TestPollDeadline: poll over many pollables that never become ready
// returns when the call's context ends, promptly and without spinning.
func TestPollDeadline(t *testing.T) {
	h := testHost(t)
	c, _ := NewCtx(Grants{})
	defer c.Close()
	var ps []any
	for range 50 {
		ps = append(ps, c.subscribe(h.t, neverReady{}))
	}
	ps = append(ps, h.call(t, c, "wasi:clocks/monotonic-clock#subscribe-duration", uint64(time.Hour)))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := h.record["wasi:io/poll#poll"](ctx, c, []any{ps})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	// A timer among them wins.
	ps = append(ps, h.call(t, c, "wasi:clocks/monotonic-clock#subscribe-duration", uint64(10*time.Millisecond)))
	v, err := h.record["wasi:io/poll#poll"](context.Background(), c, []any{ps})
	if err != nil || len(v.([]any)) != 1 || v.([]any)[0] != uint32(len(ps)-1) {
		t.Fatalf("poll = %v, %v", v, err)
	}
	_ = wit.None
}

// subscribe returns a new pollable handle on src.
func (c *Ctx) subscribe(t *types, src pollSource) wit.Resource {
	return c.newRes(t.pollable, &pollable{src: src})
}
