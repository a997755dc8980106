package launch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/otlpreceiver"
)

// One trace across capsules: `mur send` run within a caller's trace
// (TRACEPARENT) and a script capsule's murmur:message/send under `mur run`
// in that trace both reach an agent capsule, over A2A 1.0, with the
// caller's trace id and spans of their own; the agent records each in
// a2a_task_received, the script capsule its send in a2a_send.
func TestTraceparentAcrossCapsules(t *testing.T) {
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	const caller = "00-" + traceID + "-00f067aa0ba902b7-01"
	agent := &project{t: t, dir: t.TempDir()}
	c := serveCapsule(t, agent, `name: traced
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "traced answer"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
lifecycle:
  task_acceptance: queue
  after_task: sleep
`, "scripted")

	out, errs, code := runMur(agent.dir, []string{"TRACEPARENT=" + caller}, "send", c.base, "hello")
	if code != 0 || !strings.Contains(out, "traced answer") {
		t.Fatalf("mur send: exit %d\n%s\n%s", code, out, errs)
	}

	hostPort := strings.TrimPrefix(c.base, "http://")
	script := newProject(t, "  network:\n    allow: [\""+hostPort+"\"]\n", []string{"record"})
	wd := t.TempDir()
	if err := os.WriteFile(filepath.Join(wd, "peer.txt"), []byte(c.base), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = runMur(script.dir, []string{"TRACEPARENT=" + caller}, "run", "--json", "--workdir", wd)
	if code != 0 {
		t.Fatalf("script capsule: exit %d\n%s\n%s", code, out, errs)
	}
	sends := traceRecords(t, filepath.Join(wd, ".murmur"), "a2a_send")
	if len(sends) != 1 {
		t.Fatalf("script capsule trace: %d a2a_send records, want 1 (record.txt steps may say why)", len(sends))
	}
	sent, _ := sends[0]["traceparent"].(string)

	c.stop()
	received := traceRecords(t, filepath.Join(agent.dir, "workdir", c.sessionID), trace.TypeA2ATaskReceived)
	if len(received) != 2 {
		t.Fatalf("agent trace: %d a2a_task_received records, want 2", len(received))
	}
	seen := map[string]bool{}
	for _, r := range received {
		tp, _ := r["traceparent_from_caller"].(string)
		if !strings.HasPrefix(tp, "00-"+traceID+"-") || tp == caller {
			t.Errorf("traceparent_from_caller %q: want the caller's trace id and another span", tp)
		}
		seen[tp] = true
	}
	if !seen[sent] {
		t.Errorf("the script capsule's a2a_send traceparent %q is not one the agent received (%v)", sent, seen)
	}
}

// traceRecords reads the fields of every record of type typ in the one
// trace.jsonl under dir (a session directory, or the parent of one).
func traceRecords(t *testing.T, dir, typ string) []map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "trace.jsonl"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "trace.jsonl"))
	files = append(files, more...)
	if len(files) != 1 {
		t.Fatalf("trace.jsonl files under %s: %v, want one", dir, files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, r := range recs {
		if r.Type == typ {
			out = append(out, r.Fields)
		}
	}
	return out
}

// With telemetry on, a script capsule's run is an invoke_workflow span in
// the caller's trace (TRACEPARENT), and its murmur:message/send carries
// that span: the agent it messages, exporting too, puts its task's
// invoke_agent span under it.
func TestScriptSendsCarryTheWorkflowSpan(t *testing.T) {
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	const caller = "00-" + traceID + "-00f067aa0ba902b7-01"
	collector := otlpreceiver.StartHTTP(t)
	otel := "OTEL_EXPORTER_OTLP_ENDPOINT=" + collector.URL
	agent := &project{t: t, dir: t.TempDir()}
	c := serveCapsuleWith(t, agent, `name: traced
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "traced answer"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
lifecycle:
  task_acceptance: queue
  after_task: sleep
`, []string{otel}, nil, "scripted")

	hostPort := strings.TrimPrefix(c.base, "http://")
	script := newProject(t, "  network:\n    allow: [\""+hostPort+"\"]\n", []string{"record"})
	wd := t.TempDir()
	if err := os.WriteFile(filepath.Join(wd, "peer.txt"), []byte(c.base), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runMur(script.dir, []string{"TRACEPARENT=" + caller, otel}, "run", "--json", "--workdir", wd)
	if code != 0 {
		t.Fatalf("script capsule: exit %d\n%s\n%s", code, out, errs)
	}
	if code := c.stop(); code != 0 && code != 143 {
		t.Fatalf("agent capsule: exit %d\n%s", code, c.stderr.String())
	}
	sends := traceRecords(t, filepath.Join(wd, ".murmur"), "a2a_send")
	if len(sends) != 1 {
		t.Fatalf("script capsule trace: %d a2a_send records, want 1", len(sends))
	}
	sent, _ := sends[0]["traceparent"].(string)
	spans := collector.Spans()
	workflows := otlpreceiver.Named(spans, "invoke_workflow steps")
	tasks := otlpreceiver.Named(spans, "invoke_agent traced")
	if len(workflows) != 1 || len(tasks) != 1 {
		t.Fatalf("spans received: %+v", spans)
	}
	w, task := workflows[0], tasks[0]
	if w.TraceID != traceID || w.ParentSpanID != "00f067aa0ba902b7" {
		t.Errorf("the workflow span is not the caller's child: %+v", w)
	}
	if want := "00-" + traceID + "-" + w.SpanID + "-01"; sent != want {
		t.Errorf("the send carried %q, want the workflow span %q", sent, want)
	}
	if task.TraceID != traceID || task.ParentSpanID != w.SpanID {
		t.Errorf("the agent's task span %+v is not the workflow span's child (%s)", task, w.SpanID)
	}
}
