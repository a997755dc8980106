package telemetry_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/telemetry"
	"github.com/mur-go/mur/internal/testing/otlpreceiver"
)

const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
	caller      = "00-" + callerTrace + "-" + callerSpan + "-01"
)

func capsule() *manifest.Capsule {
	return &manifest.Capsule{Name: "agent", Version: "0.1.0", Inference: &manifest.Inference{Transport: "http",
		Endpoint: "https://api.anthropic.com", Model: "claude-x", Driver: &manifest.Driver{Artifact: "anthropic"}}}
}

// run feeds the events of one task (a model call asking for a tool, the
// tool, a hook, a compaction, the final model call) to the exporter's
// observer.
func run(o observe.Observer, traceparent string) {
	t0 := time.Unix(1700000000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	code := int32(3)
	for _, e := range []observe.Event{
		{Kind: observe.HookStart, Time: at(0), Name: "audit", HookEvent: "on-session-start"},
		{Kind: observe.HookEnd, Time: at(1), Name: "audit", HookEvent: "on-session-start", Status: "ok"},
		{Kind: observe.TaskStart, Time: at(2), TaskID: "tsk_1", ContextID: "ctx_1", Source: "a2a", Traceparent: traceparent, Input: "the task text"},
		{Kind: observe.ModelStart, Time: at(3), TaskID: "tsk_1", Turn: 0, Name: "claude-x", InputTokens: 120, Input: "the prompt"},
		{Kind: observe.ModelEnd, Time: at(10), TaskID: "tsk_1", Turn: 0, Name: "claude-x", Status: "ok", Decision: "tool_call",
			StopReason: "tool_use", InputTokens: 130, OutputTokens: 12, UsageReported: true, Output: "the answer"},
		{Kind: observe.ToolStart, Time: at(11), TaskID: "tsk_1", Turn: 0, Name: "fingerprint", ToolKind: "native", Input: `{"path":"x"}`},
		{Kind: observe.HookStart, Time: at(12), Name: "guard", HookEvent: "on-tool-call"},
		{Kind: observe.HookEnd, Time: at(13), Name: "guard", HookEvent: "on-tool-call", Status: "error", Err: "guard said no"},
		{Kind: observe.ToolEnd, Time: at(14), TaskID: "tsk_1", Turn: 0, Name: "fingerprint", ToolKind: "native", Status: "error", ExitCode: &code, Output: "tool output"},
		{Kind: observe.CompactionStart, Time: at(15), TaskID: "tsk_1", Turn: 0, InputTokens: 900},
		{Kind: observe.CompactionEnd, Time: at(16), TaskID: "tsk_1", Turn: 0, Status: "kept"},
		{Kind: observe.ModelStart, Time: at(17), TaskID: "tsk_1", Turn: 1, Name: "claude-x", InputTokens: 150},
		{Kind: observe.ModelText, Time: at(18), TaskID: "tsk_1", Turn: 1, Text: "streamed"},
		{Kind: observe.ModelEnd, Time: at(19), TaskID: "tsk_1", Turn: 1, Name: "claude-x", Status: "ok", Decision: "end_turn", StopReason: "end_turn", OutputTokens: 7},
		{Kind: observe.TaskEnd, Time: at(20), TaskID: "tsk_1", Status: "ok", Turns: 2, InputTokens: 280, OutputTokens: 19, Output: "done"},
	} {
		o.Observe(e)
	}
}

// The pipeline against a real OTLP receiver, over HTTP and over gRPC: the
// task's spans with the GenAI conventions' names and attributes, the
// task under the caller's traceparent, the environment's headers on the
// request, every span counted as exported, and no message contents.
func TestExportGenAISpans(t *testing.T) {
	for _, proto := range []string{telemetry.ProtocolHTTP, telemetry.ProtocolGRPC} {
		t.Run(proto, func(t *testing.T) {
			var r *otlpreceiver.Receiver
			endpoint := ""
			if proto == telemetry.ProtocolGRPC {
				r = otlpreceiver.StartGRPC(t)
				endpoint = r.URL
			} else {
				r = otlpreceiver.StartHTTP(t)
				endpoint = r.URL + "/v1/traces"
			}
			x, err := telemetry.Start(context.Background(), telemetry.Config{Endpoint: endpoint, Protocol: proto,
				Headers: map[string]string{"x-collector-key": "collector-secret-1"}, Timeout: 10 * time.Second, From: telemetry.EnvEndpoint},
				telemetry.Identity{SessionID: "ses_1", Capsule: capsule()})
			if err != nil {
				t.Fatal(err)
			}
			run(x.Observer(), caller)
			stats := x.Shutdown(context.Background())
			spans := r.Spans()
			if stats.Ended != 7 || stats.Exported != 7 || stats.Dropped != 0 || stats.Err != nil || len(spans) != 7 {
				t.Fatalf("stats %+v, %d spans received: %v", stats, len(spans), spans)
			}
			if h := r.Headers(); len(h) == 0 || h[0].Get("x-collector-key") != "collector-secret-1" {
				t.Errorf("export headers %v", h)
			}
			if proto == telemetry.ProtocolHTTP && r.Paths()[0] != "/v1/traces" {
				t.Errorf("posted to %v", r.Paths())
			}
			task := one(t, spans, "invoke_agent agent")
			if task.TraceID != callerTrace || task.ParentSpanID != callerSpan || task.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
				t.Errorf("invoke_agent is not the caller's child: %+v", task)
			}
			attrs(t, task, map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "agent", "gen_ai.agent.version": "0.1.0",
				"gen_ai.provider.name": "anthropic", "gen_ai.conversation.id": "ctx_1", "gen_ai.request.model": "claude-x",
				"gen_ai.usage.input_tokens": int64(280), "gen_ai.usage.output_tokens": int64(19), "murmur.task.id": "tsk_1",
				"murmur.session.id": "ses_1", "murmur.task.exit_status": "ok"})
			if task.Resource["service.name"] != "agent" || task.Resource["service.instance.id"] != "ses_1" {
				t.Errorf("resource %v", task.Resource)
			}
			chats := otlpreceiver.Named(spans, "chat claude-x")
			if len(chats) != 2 {
				t.Fatalf("chat spans %v", chats)
			}
			for _, c := range chats {
				if c.ParentSpanID != task.SpanID || c.TraceID != callerTrace || c.Kind != tracepb.Span_SPAN_KIND_CLIENT {
					t.Errorf("chat span not in the task: %+v", c)
				}
			}
			attrs(t, chats[0], map[string]any{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "anthropic",
				"gen_ai.request.model": "claude-x", "gen_ai.usage.input_tokens": int64(130), "gen_ai.usage.output_tokens": int64(12),
				"gen_ai.response.finish_reasons": []any{"tool_use"}, "server.address": "api.anthropic.com", "server.port": int64(443),
				"murmur.usage.reported": true, "murmur.turn": int64(0)})
			// Not reported: mur's own estimate of the input.
			attrs(t, chats[1], map[string]any{"gen_ai.usage.input_tokens": int64(150), "murmur.usage.reported": false})
			tool := one(t, spans, "execute_tool fingerprint")
			if tool.ParentSpanID != task.SpanID || tool.StatusCode != tracepb.Status_STATUS_CODE_ERROR {
				t.Errorf("execute_tool: %+v", tool)
			}
			attrs(t, tool, map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "fingerprint",
				"error.type": "tool_error", "process.exit.code": int64(3), "murmur.tool.kind": "native"})
			guard := one(t, spans, "hook guard")
			if guard.ParentSpanID != task.SpanID || guard.StatusMessage != "guard said no" {
				t.Errorf("hook in a task: %+v", guard)
			}
			attrs(t, guard, map[string]any{"murmur.hook.event": "on-tool-call", "error.type": "hook_error"})
			if audit := one(t, spans, "hook audit"); audit.ParentSpanID != "" || audit.TraceID == callerTrace {
				t.Errorf("a hook outside any task is in the task's trace: %+v", audit)
			}
			attrs(t, one(t, spans, "compaction"), map[string]any{"murmur.compaction.status": "kept", "murmur.compaction.tokens_before": int64(900)})
			for _, s := range spans {
				for k, v := range s.Attrs {
					if str, ok := v.(string); ok && (strings.Contains(str, "prompt") || strings.Contains(str, "answer") || strings.Contains(str, "output") || strings.Contains(str, "task text")) {
						t.Errorf("%s carries content in %s: %q", s.Name, k, str)
					}
				}
			}
		})
	}
}

// A task that brings no traceparent starts in the trace the run was
// started within (TRACEPARENT), or a trace of its own without one; a
// traceparent that is not one is ignored.
func TestTaskParents(t *testing.T) {
	for _, c := range []struct{ name, process, task, trace, parent string }{
		{"caller's", "", caller, callerTrace, callerSpan},
		{"process's", caller, "", callerTrace, callerSpan},
		{"task's over process's", "00-11111111111111111111111111111111-2222222222222222-01", caller, callerTrace, callerSpan},
		{"invalid ignored", "", "00-zz-yy-01", "", ""},
		{"none", "", "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := otlpreceiver.StartHTTP(t)
			x := start(t, r.URL+"/v1/traces", c.process)
			run(x.Observer(), c.task)
			x.Shutdown(context.Background())
			task := one(t, r.Spans(), "invoke_agent agent")
			if c.trace != "" && (task.TraceID != c.trace || task.ParentSpanID != c.parent) || c.trace == "" && (task.ParentSpanID != "" || task.TraceID == callerTrace) {
				t.Errorf("invoke_agent trace %s parent %q, want trace %q parent %q", task.TraceID, task.ParentSpanID, c.trace, c.parent)
			}
		})
	}
}

// A collector nobody listens at is counted, not waited for: every span
// dropped, the error kept, a warning; Observe never blocks.
func TestUnreachableCollector(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	x := start(t, "http://"+addr+"/v1/traces", "")
	run(x.Observer(), "")
	stats := x.Shutdown(context.Background())
	if stats.Ended != 7 || stats.Exported != 0 || stats.Dropped != 7 || stats.Err == nil {
		t.Fatalf("stats %+v", stats)
	}
	w, ok := x.Warning(stats, "")
	if !ok || w.Code != telemetry.WarnTelemetry || !strings.Contains(w.Msg, "7 of 7 spans were not delivered") || !strings.Contains(w.Msg, addr) {
		t.Errorf("warning %+v", w)
	}
	rec := x.Record(stats)
	if rec.SpansDropped != 7 || rec.Error == nil || rec.Endpoint != "http://"+addr+"/v1/traces" {
		t.Errorf("record %+v", rec)
	}
}

// A collector that takes the export and never answers holds up neither
// the observer nor Shutdown past its deadline, whatever the export
// timeout; a queue that overflows drops and counts the overflow.
func TestHangingCollector(t *testing.T) {
	r := otlpreceiver.StartHTTP(t, otlpreceiver.Hang())
	x, err := telemetry.Start(context.Background(), telemetry.Config{Endpoint: r.URL + "/v1/traces", Protocol: telemetry.ProtocolHTTP,
		Timeout: time.Hour, From: telemetry.FieldEndpoint}, telemetry.Identity{SessionID: "ses_1", Capsule: capsule()})
	if err != nil {
		t.Fatal(err)
	}
	o := x.Observer()
	o.Observe(observe.Event{Kind: observe.TaskStart, TaskID: "t"})
	const calls = 3 * telemetry.QueueSize
	for i := range calls {
		o.Observe(observe.Event{Kind: observe.ToolStart, TaskID: "t", Turn: uint32(i), Name: "x"})
		o.Observe(observe.Event{Kind: observe.ToolEnd, TaskID: "t", Turn: uint32(i), Name: "x", Status: "ok"})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	stats := x.Shutdown(ctx)
	if took := time.Since(start); took > time.Minute {
		t.Errorf("Shutdown took %s past its 300ms deadline", took)
	}
	if !stats.Unfinished || stats.Exported != 0 || stats.Ended != calls+1 || stats.Dropped != stats.Ended {
		t.Errorf("stats %+v", stats)
	}
	if w, ok := x.Warning(stats, ""); !ok || !strings.Contains(w.Msg, "did not take them") {
		t.Errorf("warning %+v", w)
	}
}

// A script capsule's run is one invoke_workflow span in the caller's
// trace; its traceparent, which the capsule's sends carry, names it.
func TestWorkflow(t *testing.T) {
	r := otlpreceiver.StartHTTP(t)
	x := start(t, r.URL+"/v1/traces", caller)
	w := x.StartWorkflow(time.Now())
	w.End(time.Now(), true, "capsule trapped")
	x.Shutdown(context.Background())
	s := one(t, r.Spans(), "invoke_workflow agent")
	if w.Traceparent != "00-"+s.TraceID+"-"+s.SpanID+"-01" || s.TraceID != callerTrace || s.ParentSpanID != callerSpan {
		t.Errorf("traceparent %q for span %+v", w.Traceparent, s)
	}
	attrs(t, s, map[string]any{"gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "agent", "error.type": "failed"})
}

// An agent CLI's turn, reported only once it ended, is a chat span too.
func TestTurnReportedAtItsEnd(t *testing.T) {
	r := otlpreceiver.StartHTTP(t)
	x := start(t, r.URL+"/v1/traces", "")
	o := x.Observer()
	now := time.Now()
	o.Observe(observe.Event{Kind: observe.TaskStart, TaskID: "t", Time: now})
	o.Observe(observe.Event{Kind: observe.ModelEnd, TaskID: "t", Turn: 3, Name: "claude-x", Decision: "end_turn", Status: "ok", Time: now.Add(time.Second)})
	o.Observe(observe.Event{Kind: observe.TaskEnd, TaskID: "t", Status: "ok", Time: now.Add(2 * time.Second)})
	x.Shutdown(context.Background())
	task, chat := one(t, r.Spans(), "invoke_agent agent"), one(t, r.Spans(), "chat claude-x")
	if chat.ParentSpanID != task.SpanID || chat.StatusCode == tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("chat %+v in task %s", chat, task.SpanID)
	}
	attrs(t, chat, map[string]any{"murmur.turn": int64(3), "murmur.inference.decision": "end_turn", "gen_ai.operation.name": "chat"})
}

// Spans still open when the session ends (a run cut short) are ended and
// exported, marked unfinished.
func TestOpenSpansEndAtShutdown(t *testing.T) {
	r := otlpreceiver.StartHTTP(t)
	x := start(t, r.URL+"/v1/traces", "")
	o := x.Observer()
	o.Observe(observe.Event{Kind: observe.TaskStart, TaskID: "t"})
	o.Observe(observe.Event{Kind: observe.ModelStart, TaskID: "t", Name: "m"})
	stats := x.Shutdown(context.Background())
	if stats.Exported != 2 {
		t.Fatalf("stats %+v", stats)
	}
	for _, s := range r.Spans() {
		if s.StatusCode != tracepb.Status_STATUS_CODE_ERROR || s.Attrs["error.type"] != "unfinished" {
			t.Errorf("%s: %+v", s.Name, s)
		}
	}
}

func start(t *testing.T, endpoint, traceparent string) *telemetry.Exporter {
	t.Helper()
	x, err := telemetry.Start(context.Background(), telemetry.Config{Endpoint: endpoint, Protocol: telemetry.ProtocolHTTP,
		Timeout: 10 * time.Second, From: telemetry.FieldEndpoint}, telemetry.Identity{SessionID: "ses_1", Capsule: capsule(), Traceparent: traceparent})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func one(t *testing.T, spans []otlpreceiver.Span, name string) otlpreceiver.Span {
	t.Helper()
	got := otlpreceiver.Named(spans, name)
	if len(got) != 1 {
		var names []string
		for _, s := range spans {
			names = append(names, s.Name)
		}
		t.Fatalf("%d spans named %q among %q", len(got), name, names)
	}
	return got[0]
}

func attrs(t *testing.T, s otlpreceiver.Span, want map[string]any) {
	t.Helper()
	for k, v := range want {
		got := s.Attrs[k]
		if gs, ok := got.([]any); ok {
			ws, _ := v.([]any)
			if len(gs) != len(ws) || len(gs) > 0 && gs[0] != ws[0] {
				t.Errorf("%s: %s = %v, want %v", s.Name, k, got, v)
			}
			continue
		}
		if got != v {
			t.Errorf("%s: %s = %#v, want %#v", s.Name, k, got, v)
		}
	}
}
