package observe

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// A Serial observer shared by goroutines sees one event at a time.
func TestSerial(t *testing.T) {
	var inside, overlaps, seen atomic.Int32
	o := Serial(Func(func(Event) {
		if inside.Add(1) > 1 {
			overlaps.Add(1)
		}
		runtime.Gosched()
		seen.Add(1)
		inside.Add(-1)
	}))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				o.Observe(Event{Kind: HookStart})
			}
		})
	}
	wg.Wait()
	if overlaps.Load() != 0 || seen.Load() != 1600 {
		t.Errorf("%d overlapping calls, %d events seen", overlaps.Load(), seen.Load())
	}
	if Serial(nil) != nil {
		t.Error("Serial(nil) is not nil")
	}
}
