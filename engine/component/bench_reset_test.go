//go:build unix

package component_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// BenchmarkReusedStoreCallGo is a tool call of the Go guest as mur makes
// them, each in its own store from a snapshot, when the store before it
// was parked and its instances serve this one: instantiation (the reused
// path), the call, and closing, whose reset of the memory is the part the
// two ways differ in. "pages" copies back the pages written since the
// last reset, "whole" the whole image. reused/op and tracked/op say which
// path the stores took (1 each: every store reused, every reset by its
// pages); cpu-µs/op is the process's CPU time per call.
func BenchmarkReusedStoreCallGo(b *testing.B) {
	for _, mode := range []struct {
		name  string
		pages bool
	}{{"pages", true}, {"whole", false}} {
		b.Run(mode.name, func(b *testing.B) {
			ctx := context.Background()
			e := newEngine(b)
			if !mode.pages {
				component.StopTrackingPages(e)
			}
			c := compile(b, e, testguest.ToolrunGo)
			h := newBenchHost(b, testguest.ToolrunGo)
			h.preinit = &component.Preinit{Key: "bench", Allow: benchInitReads}
			in := benchInput()
			one := func() {
				inst, err := h.instantiate(ctx, c)
				if err != nil {
					b.Fatal(err)
				}
				f, err := inst.Func(toolRun)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.Call(ctx, in); err != nil {
					b.Fatal(err)
				}
				inst.done()
			}
			// The snapshot, then stores whose resets arm and learn.
			for range 4 {
				one()
			}
			reused, tracked := component.ReusedStores(e), component.TrackedResets(e)
			cpu := processCPUTime()
			for b.Loop() {
				one()
			}
			reportCPUTime(b, cpu)
			b.ReportMetric(float64(component.ReusedStores(e)-reused)/float64(b.N), "reused/op")
			b.ReportMetric(float64(component.TrackedResets(e)-tracked)/float64(b.N), "tracked/op")
		})
	}
}

// processCPUTime is the process's CPU time, user and system: on a shared
// machine it moves far less than the wall time.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPUTime(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPUTime()-start)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}
