package telemetry

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mur-go/mur/internal/agent/observe"
)

// observer turns a session's steps into spans after the OpenTelemetry
// GenAI conventions: a task is an invoke_agent span, each model call a
// chat span and each tool call an execute_tool span inside it, with
// spans of mur's own for hooks and compaction. Spans carry names, ids,
// counts and outcomes, never what the model was sent or said or what a
// tool returned. Events arrive from the loop and from async hooks' own
// goroutines; mu orders them.
type observer struct {
	mu     sync.Mutex
	tracer trace.Tracer
	id     identityAttrs
	// parent is the context a task with no traceparent of its own, and a
	// hook outside any task, starts in.
	parent context.Context
	tasks  map[string]*taskSpans
	// current is the task last started and not ended: a hook's parent.
	current *taskSpans
	hooks   []openSpan
}

// taskSpans are one task's span and its open children.
type taskSpans struct {
	id, conversation string
	span             trace.Span
	ctx              context.Context
	model            trace.Span
	// estimate is mur's count of the model call's input, for a provider
	// that reports no usage.
	estimate   uint64
	tools      []openSpan
	compaction trace.Span
}

// openSpan is a tool's or a hook's span waiting for its end, found by
// what its end event names (tool calls of one turn may overlap).
type openSpan struct {
	key  string
	turn uint32
	span trace.Span
}

func newObserver(tracer trace.Tracer, id Identity) *observer {
	return &observer{tracer: tracer, id: newIdentityAttrs(id), parent: parentContext(context.Background(), id.Traceparent),
		tasks: map[string]*taskSpans{}}
}

// parentContext is ctx with the remote span traceparent names, when it
// is a valid W3C traceparent; ctx unchanged otherwise.
func parentContext(ctx context.Context, traceparent string) context.Context {
	if traceparent == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": traceparent})
}

func (o *observer) Observe(e observe.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	switch e.Kind {
	case observe.TaskStart:
		o.taskStart(e)
	case observe.TaskEnd:
		o.taskEnd(e)
	case observe.ModelStart:
		o.modelStart(e)
	case observe.ModelEnd:
		o.modelEnd(e)
	case observe.ToolStart:
		o.toolStart(e)
	case observe.ToolEnd:
		o.toolEnd(e)
	case observe.HookStart:
		o.hookStart(e)
	case observe.HookEnd:
		o.hookEnd(e)
	case observe.CompactionStart:
		o.compactionStart(e)
	case observe.CompactionEnd:
		o.compactionEnd(e)
	}
}

func (o *observer) taskStart(e observe.Event) {
	parent := o.parent
	if e.Traceparent != "" {
		if ctx := parentContext(context.Background(), e.Traceparent); trace.SpanContextFromContext(ctx).IsValid() {
			parent = ctx
		}
	}
	attrs := append([]attribute.KeyValue{semconv.GenAIOperationNameInvokeAgent, attrTaskID.String(e.TaskID)}, o.id.agent...)
	if e.ContextID != "" {
		attrs = append(attrs, semconv.GenAIConversationID(e.ContextID))
	}
	if e.Source != "" {
		attrs = append(attrs, attrTaskSource.String(e.Source))
	}
	ctx, span := o.tracer.Start(parent, "invoke_agent "+o.id.name, trace.WithTimestamp(e.Time),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	t := &taskSpans{id: e.TaskID, conversation: e.ContextID, span: span, ctx: ctx}
	if old := o.tasks[e.TaskID]; old != nil {
		old.end(e.Time)
	}
	o.tasks[e.TaskID] = t
	o.current = t
}

func (o *observer) taskEnd(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil {
		return
	}
	delete(o.tasks, e.TaskID)
	if o.current == t {
		o.current = nil
	}
	t.span.SetAttributes(attrTaskStatus.String(e.Status), attrTaskTurns.Int64(int64(e.Turns)),
		semconv.GenAIUsageInputTokens(clampInt(e.InputTokens)), semconv.GenAIUsageOutputTokens(clampInt(e.OutputTokens)))
	if e.Status != "ok" {
		fail(t.span, e.Status, e.Status)
	}
	t.end(e.Time)
}

func (o *observer) modelStart(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil {
		return
	}
	if t.model != nil {
		unfinished(t.model, e.Time)
	}
	o.startChat(t, e, e.Time)
	t.estimate = e.InputTokens
}

func (o *observer) startChat(t *taskSpans, e observe.Event, at time.Time) {
	attrs := append([]attribute.KeyValue{semconv.GenAIOperationNameChat, attrTurn.Int64(int64(e.Turn))}, o.id.model...)
	if e.Name != "" {
		attrs = append(attrs, semconv.GenAIRequestModel(e.Name))
	}
	if t.conversation != "" {
		attrs = append(attrs, semconv.GenAIConversationID(t.conversation))
	}
	_, t.model = o.tracer.Start(t.ctx, spanName("chat", e.Name), trace.WithTimestamp(at),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

func (o *observer) modelEnd(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil {
		return
	}
	if t.model == nil {
		// An agent CLI (transport: process) reports a turn only once it
		// ended: the span is the turn's end, or its Duration before it.
		o.startChat(t, e, e.Time.Add(-e.Duration))
		t.estimate = 0
	}
	span := t.model
	t.model = nil
	in := t.estimate
	if e.UsageReported {
		in = e.InputTokens
	}
	span.SetAttributes(semconv.GenAIUsageInputTokens(clampInt(in)), semconv.GenAIUsageOutputTokens(clampInt(e.OutputTokens)),
		attrUsageReported.Bool(e.UsageReported))
	if e.StopReason != "" {
		span.SetAttributes(semconv.GenAIResponseFinishReasons(e.StopReason))
	}
	if e.Decision != "" {
		span.SetAttributes(attrDecision.String(e.Decision))
	}
	if e.Status == "error" {
		fail(span, errDriver, e.Err)
	}
	span.End(trace.WithTimestamp(e.Time))
}

func (o *observer) toolStart(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil {
		return
	}
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(e.Name),
		semconv.GenAIToolType("function"), attrToolKind.String(e.ToolKind), attrTurn.Int64(int64(e.Turn))}
	if t.conversation != "" {
		attrs = append(attrs, semconv.GenAIConversationID(t.conversation))
	}
	_, span := o.tracer.Start(t.ctx, spanName("execute_tool", e.Name), trace.WithTimestamp(e.Time),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	t.tools = append(t.tools, openSpan{key: e.Name, turn: e.Turn, span: span})
}

func (o *observer) toolEnd(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil {
		return
	}
	var span trace.Span
	t.tools, span = take(t.tools, e.Name, e.Turn)
	if span == nil {
		return
	}
	span.SetAttributes(attrToolStatus.String(e.Status))
	if e.ExitCode != nil {
		span.SetAttributes(semconv.ProcessExitCode(int(*e.ExitCode)))
	}
	if e.Signal != "" {
		span.SetAttributes(attrToolSignal.String(e.Signal))
	}
	switch {
	case e.Cancelled:
		fail(span, errCancelled, "cancelled")
	case e.Status == "error":
		fail(span, errTool, "the tool answered an error")
	}
	span.End(trace.WithTimestamp(e.Time))
}

func (o *observer) hookStart(e observe.Event) {
	parent := o.parent
	if o.current != nil {
		parent = o.current.ctx
	}
	_, span := o.tracer.Start(parent, spanName("hook", e.Name), trace.WithTimestamp(e.Time),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrHookName.String(e.Name), attrHookEvent.String(e.HookEvent)))
	o.hooks = append(o.hooks, openSpan{key: e.Name + "\x00" + e.HookEvent, span: span})
}

func (o *observer) hookEnd(e observe.Event) {
	var span trace.Span
	o.hooks, span = take(o.hooks, e.Name+"\x00"+e.HookEvent, 0)
	if span == nil {
		return
	}
	if e.Status == "error" {
		fail(span, errHook, e.Err)
	}
	span.End(trace.WithTimestamp(e.Time))
}

func (o *observer) compactionStart(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil {
		return
	}
	if t.compaction != nil {
		unfinished(t.compaction, e.Time)
	}
	_, t.compaction = o.tracer.Start(t.ctx, "compaction", trace.WithTimestamp(e.Time), trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(attrTurn.Int64(int64(e.Turn)), attrTokensBefore.Int64(int64(clampInt(e.InputTokens)))))
}

func (o *observer) compactionEnd(e observe.Event) {
	t := o.tasks[e.TaskID]
	if t == nil || t.compaction == nil {
		return
	}
	t.compaction.SetAttributes(attrCompaction.String(e.Status))
	t.compaction.End(trace.WithTimestamp(e.Time))
	t.compaction = nil
}

// close ends every span still open at now, marked unfinished: the
// session ended before their end events came.
func (o *observer) close(now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, h := range o.hooks {
		unfinished(h.span, now)
	}
	o.hooks = nil
	for id, t := range o.tasks {
		for _, s := range []trace.Span{t.model, t.compaction} {
			if s != nil {
				unfinished(s, now)
			}
		}
		for _, s := range t.tools {
			unfinished(s.span, now)
		}
		unfinished(t.span, now)
		delete(o.tasks, id)
	}
	o.current = nil
}

// end ends the task's span, and any child left open, at now.
func (t *taskSpans) end(now time.Time) {
	for _, s := range []trace.Span{t.model, t.compaction} {
		if s != nil {
			unfinished(s, now)
		}
	}
	for _, s := range t.tools {
		unfinished(s.span, now)
	}
	t.model, t.compaction, t.tools = nil, nil, nil
	t.span.End(trace.WithTimestamp(now))
}

// take removes the oldest open span of key (and turn) from open.
func take(open []openSpan, key string, turn uint32) ([]openSpan, trace.Span) {
	for i, s := range open {
		if s.key == key && s.turn == turn {
			return append(open[:i], open[i+1:]...), s.span
		}
	}
	return open, nil
}

// fail marks span failed: error.type and the span status.
func fail(span trace.Span, errType, msg string) {
	span.SetAttributes(semconv.ErrorTypeKey.String(errType))
	span.SetStatus(codes.Error, msg)
}

func unfinished(span trace.Span, now time.Time) {
	fail(span, errUnended, "the session ended before this step did")
	span.End(trace.WithTimestamp(now))
}

// spanName is the conventions' "{operation} {name}", or the operation
// alone when there is no name.
func spanName(op, name string) string {
	if name == "" {
		return op
	}
	return op + " " + name
}

// clampInt is n as the int an attribute takes.
func clampInt(n uint64) int {
	const maxInt = int(^uint(0) >> 1)
	if n > uint64(maxInt) {
		return maxInt
	}
	return int(n)
}
