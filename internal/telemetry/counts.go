package telemetry

import (
	"context"
	"sync"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// counts follow the session's spans through the pipeline. The SDK's
// batcher keeps its drop count to itself and hands export failures to the
// process-wide OpenTelemetry error handler (which prints them, unredacted,
// on stderr); counting on both sides of it instead gives the session its
// own figures and keeps failures out of the global handler.
type counts struct {
	ended, exported atomic.Uint64
	mu              sync.Mutex
	err             error
}

// counts is the first span processor: it sees every sampled span end,
// before the batcher may drop it.
var _ sdktrace.SpanProcessor = (*counts)(nil)

func (c *counts) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (c *counts) OnEnd(s sdktrace.ReadOnlySpan) {
	if s.SpanContext().IsSampled() {
		c.ended.Add(1)
	}
}

func (c *counts) Shutdown(context.Context) error   { return nil }
func (c *counts) ForceFlush(context.Context) error { return nil }

func (c *counts) stats() Stats {
	ended, exported := c.ended.Load(), c.exported.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Stats{Ended: ended, Exported: exported, Err: c.err}
	if ended > exported {
		s.Dropped = ended - exported
	}
	return s
}

// countingExporter counts what reaches the collector and keeps the first
// failure. It reports success to the batcher whatever happened: the
// failure is the session's to report, and the batch is not retried.
type countingExporter struct {
	next sdktrace.SpanExporter
	c    *counts
}

func (e *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if err := e.next.ExportSpans(ctx, spans); err != nil {
		e.c.mu.Lock()
		if e.c.err == nil {
			e.c.err = err
		}
		e.c.mu.Unlock()
		return nil
	}
	e.c.exported.Add(uint64(len(spans)))
	return nil
}

func (e *countingExporter) Shutdown(ctx context.Context) error { return e.next.Shutdown(ctx) }
