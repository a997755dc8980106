package wasip2_test

import (
	"context"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
)

// clockPreinit reads the monotonic clock in its start function.
const clockPreinit = "clock-preinit"

// A store restored from a snapshot reads the monotonic clock after the
// snapshot's initialisation read it and baked the reading in: every
// reading, across the stores, must be at least the baked one and at least
// the one before it. The first store's WASI context is made before the
// component is compiled, so its initialisation reads well past that
// context's creation while the restored stores call right after theirs:
// a clock counting from each context's creation steps back.
func TestMonotonicClockNeverStepsBackAcrossSnapshot(t *testing.T) {
	ctx := context.Background()
	l := newLinker(t)
	first := newWASICtx(t)
	c := compileGuest(t, clockPreinit)
	pre := &component.Preinit{Key: "clock", Allow: func(inst, name string) bool {
		return inst == "wasi:clocks/monotonic-clock" && name == "now"
	}}
	var last, baked uint64
	for i := range 5 {
		wctx := first
		if i > 0 {
			wctx = newWASICtx(t)
		}
		inst, err := l.Instantiate(ctx, c, &component.Store{Data: wctx, Preinit: pre})
		if err != nil {
			t.Fatal(err)
		}
		atInit := callU64(t, inst, "at-init")
		if i == 0 {
			baked = atInit
		} else if atInit != baked {
			t.Fatalf("store %d: start-time reading %d, want the snapshot's %d (not restored?)", i, atInit, baked)
		}
		now := callU64(t, inst, "now")
		if now < baked || now < last {
			t.Fatalf("store %d: monotonic clock read %d after the snapshot baked in %d and the last store read %d", i, now, baked, last)
		}
		last = now
		inst.Close(ctx)
	}
}

func newWASICtx(t *testing.T) *wasip2.Ctx {
	t.Helper()
	wctx, err := wasip2.NewCtx(wasip2.Grants{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wctx.Close() })
	return wctx
}

func callU64(t *testing.T, inst *component.Instance, name string) uint64 {
	t.Helper()
	f, err := inst.Func("test:guest/clock@0.1.0#" + name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Call(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	u, ok := v.(uint64)
	if !ok {
		t.Fatalf("%s returned %T, want uint64", name, v)
	}
	return u
}
