package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
)

// Workflow is a script capsule's run as one invoke_workflow span: the
// capsule is code that calls tools and other agents in an order of its
// own, which is what the GenAI conventions call a workflow. Its
// Traceparent is what the capsule's murmur:message/send calls carry, so
// the agents it messages put their tasks under it.
type Workflow struct {
	span trace.Span
	// Traceparent is the span's W3C trace context ("" when it is not
	// recorded: a caller's trace that is not sampled).
	Traceparent string
}

// StartWorkflow starts the span of a script capsule's run, a child of
// the Identity's Traceparent when it names one.
func (x *Exporter) StartWorkflow(now time.Time) *Workflow {
	o := x.obs
	ctx, span := o.tracer.Start(o.parent, "invoke_workflow "+o.id.name, trace.WithTimestamp(now),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(semconv.GenAIOperationNameInvokeWorkflow,
			semconv.GenAIWorkflowName(o.id.name), o.id.session))
	w := &Workflow{span: span}
	if span.SpanContext().IsValid() {
		carrier := propagation.MapCarrier{}
		propagation.TraceContext{}.Inject(ctx, carrier)
		w.Traceparent = carrier["traceparent"]
	}
	return w
}

// End ends the run's span; a run that failed is marked so, with failure
// (its error's text, without the session's secrets) as the reason.
func (w *Workflow) End(now time.Time, failed bool, failure string) {
	if failed {
		fail(w.span, "failed", failure)
	}
	w.span.End(trace.WithTimestamp(now))
}
