package telemetry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/format/manifest"
)

// The batcher's bounds: spans wait in a queue of QueueSize (one more is
// dropped and counted, never waited for), go out in batches of up to
// BatchSize at least every BatchDelay.
const (
	QueueSize  = 2048
	BatchSize  = 512
	BatchDelay = time.Second
)

// instrumentation names the spans' origin (the OTLP scope).
const instrumentation = "github.com/mur-go/mur"

// Identity is what a session's spans say about it.
type Identity struct {
	SessionID string
	Capsule   *manifest.Capsule
	// Traceparent is the W3C trace context the run was started within
	// (TRACEPARENT): the parent of a task that brings none, and of a
	// script capsule's run; "" starts new traces.
	Traceparent string
}

// Exporter is a session's span pipeline: the tracer, the batcher with
// its bounded queue, the OTLP exporter, and the counts the session's
// trace records at its end.
type Exporter struct {
	cfg   Config
	tp    *sdktrace.TracerProvider
	count *counts
	obs   *observer
}

// Start builds the pipeline cfg describes. Nothing is dialled yet: an
// unreachable collector shows only in the Stats at Shutdown.
func Start(ctx context.Context, cfg Config, id Identity) (*Exporter, error) {
	attrs := []attribute.KeyValue{semconv.ServiceName(id.Capsule.Name), semconv.ServiceInstanceID(id.SessionID)}
	if id.Capsule.Version != "" {
		attrs = append(attrs, semconv.ServiceVersion(id.Capsule.Version))
	}
	x, err := start(ctx, cfg, attrs)
	if err != nil {
		return nil, err
	}
	x.obs = newObserver(x.Tracer(), id)
	return x, nil
}

// start builds the pipeline of a process whose resource is attrs.
func start(ctx context.Context, cfg Config, attrs []attribute.KeyValue) (*Exporter, error) {
	if !cfg.Enabled() {
		return nil, errors.New("telemetry.Start: no endpoint")
	}
	exp, err := newExporter(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("setting up the OTLP exporter for %s: %w", cfg.Endpoint, err)
	}
	c := &counts{}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(resource.NewWithAttributes(semconv.SchemaURL, attrs...)),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.AlwaysSample())),
		// The counter sees each span before the batcher may drop it.
		sdktrace.WithSpanProcessor(c),
		sdktrace.WithSpanProcessor(sdktrace.NewBatchSpanProcessor(&countingExporter{next: exp, c: c},
			sdktrace.WithMaxQueueSize(QueueSize), sdktrace.WithMaxExportBatchSize(BatchSize),
			sdktrace.WithBatchTimeout(BatchDelay), sdktrace.WithExportTimeout(cfg.Timeout))),
	)
	return &Exporter{cfg: cfg, tp: tp, count: c}, nil
}

// Tracer is the pipeline's tracer, for spans of the process's own.
func (x *Exporter) Tracer() trace.Tracer {
	return x.tp.Tracer(instrumentation, trace.WithSchemaURL(semconv.SchemaURL))
}

// newExporter is the OTLP exporter of cfg's protocol. Every setting is
// given here, so none comes from the process environment behind the
// session's back (the exporters read OTEL_* themselves when not told);
// retries are off: a failed batch is counted, and the next one tries
// again.
func newExporter(ctx context.Context, cfg Config) (sdktrace.SpanExporter, error) {
	headers := cfg.Headers
	if headers == nil {
		headers = map[string]string{}
	}
	if cfg.Protocol == ProtocolGRPC {
		return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpointURL(cfg.Endpoint), otlptracegrpc.WithHeaders(headers),
			otlptracegrpc.WithTimeout(cfg.Timeout), otlptracegrpc.WithRetry(otlptracegrpc.RetryConfig{Enabled: false}))
	}
	return otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(cfg.Endpoint), otlptracehttp.WithHeaders(headers),
		otlptracehttp.WithTimeout(cfg.Timeout), otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}))
}

// Observer turns the loop's and the hooks' steps into spans. Safe for
// concurrent use; it never waits on the network.
func (x *Exporter) Observer() observe.Observer { return x.obs }

// Config is what the exporter was built with.
func (x *Exporter) Config() Config { return x.cfg }

// Stats are what became of a session's spans.
type Stats struct {
	// Ended spans were handed to the batcher; Exported ones reached the
	// collector; Dropped are the rest: a full queue, a failed export, or
	// still pending when Shutdown's deadline came.
	Ended, Exported, Dropped uint64
	// Err is the first export failure (nil when none failed), and
	// Unfinished whether Shutdown's deadline cut the flush short.
	Err        error
	Unfinished bool
}

// Shutdown ends the spans still open (a run cut short), flushes what is
// queued until ctx is done and reports what was delivered. It does not
// wait past ctx: an export still under way is abandoned and its spans
// count as dropped.
func (x *Exporter) Shutdown(ctx context.Context) Stats {
	if x.obs != nil {
		x.obs.close(time.Now())
	}
	err := x.tp.Shutdown(ctx)
	s := x.count.stats()
	s.Unfinished = err != nil && ctx.Err() != nil
	return s
}
