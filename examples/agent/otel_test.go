package agentexample

// The example's run seen by an OpenTelemetry collector: a loopback OTLP
// receiver (internal/testing/otlpreceiver, HTTP/protobuf or gRPC) gets the
// GenAI spans of `mur run` when the manifest's observability.otel_endpoint
// or the OTEL_EXPORTER_OTLP_* variables name it, with the task under the
// caller's trace (TRACEPARENT for mur run, an A2A message's traceparent
// for a served task). A collector that is down or hangs costs a warning,
// never the run; the collector's credentials reach no file of the session.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/otlpreceiver"
)

const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
	caller      = "00-" + callerTrace + "-" + callerSpan + "-01"
	// collectorSecret is the collector's credential in the environment.
	collectorSecret = "otel-collector-secret-7f3a"
)

// murEnv runs mur as e.mur does, with extra variables in its environment.
func (e *example) murEnv(dir string, extra []string, args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "MUR_CACHE_DIR=" + e.cache}, extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), exit.ExitCode()
	} else if err != nil {
		return out.String(), errb.String() + err.Error(), -1
	}
	return out.String(), errb.String(), 0
}

// withOtelEndpoint adds observability.otel_endpoint to the project's
// murmur.yaml for the rest of the test.
func (e *example) withOtelEndpoint(t *testing.T, endpoint string) {
	t.Helper()
	e.withManifestTail(t, "\nobservability:\n  otel_endpoint: "+endpoint+"\n")
}

// The example's task, seen by the collector: one invoke_agent span in the
// caller's trace, two chat spans and three execute_tool spans (the WASM
// tool, the native tool, the shell command) inside it, with the GenAI
// attributes; every span exported, as the trace's telemetry record says.
// Once from the manifest's field over OTLP/HTTP, once from the
// environment over gRPC with the collector's credentials in a header,
// which the collector gets and no file of the session holds.
func TestAgentExampleExportsGenAISpans(t *testing.T) {
	e := setUp(t)
	for _, c := range []struct {
		name string
		grpc bool
	}{{"manifest field, http/protobuf", false}, {"environment, grpc", true}} {
		t.Run(c.name, func(t *testing.T) {
			env := []string{"TRACEPARENT=" + caller}
			var r *otlpreceiver.Receiver
			if c.grpc {
				r = otlpreceiver.StartGRPC(t)
				env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+r.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=grpc",
					"OTEL_EXPORTER_OTLP_HEADERS=authorization=Bearer%20"+collectorSecret)
			} else {
				r = otlpreceiver.StartHTTP(t)
				e.withOtelEndpoint(t, r.URL)
			}
			stdout, stderr, code := e.murEnv(e.project, env, "run", "-v", "--task", "task.md")
			if code != 0 {
				t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if strings.Contains(stderr, "W-RUN-002") {
				t.Errorf("a telemetry warning:\n%s", stderr)
			}
			workdir := lineValue(t, stdout, "workdir: ")
			spans := r.Spans()
			task := only(t, spans, "invoke_agent agent")
			if task.TraceID != callerTrace || task.ParentSpanID != callerSpan {
				t.Errorf("the task span is not TRACEPARENT's child: %+v", task)
			}
			want := map[string]any{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "agent", "gen_ai.request.model": "scripted",
				"gen_ai.provider.name": "scripted", "murmur.task.source": "task_md", "murmur.task.exit_status": "ok", "murmur.task.turns": int64(2)}
			hasAttrs(t, task, want)
			if task.Resource["service.name"] != "agent" || task.Resource["service.instance.id"] != filepath.Base(workdir) {
				t.Errorf("resource %v (session %s)", task.Resource, filepath.Base(workdir))
			}
			chats := otlpreceiver.Named(spans, "chat scripted")
			if len(chats) != 2 {
				t.Fatalf("%d chat spans, want 2: %v", len(chats), names(spans))
			}
			for i, ch := range chats {
				inTask(t, ch, task)
				hasAttrs(t, ch, map[string]any{"gen_ai.operation.name": "chat", "gen_ai.request.model": "scripted", "murmur.turn": int64(i)})
				if n, _ := ch.Attrs["gen_ai.usage.input_tokens"].(int64); n <= 0 {
					t.Errorf("chat %d: no input tokens: %v", i, ch.Attrs)
				}
			}
			if fr := chats[0].Attrs["gen_ai.response.finish_reasons"]; fr == nil {
				t.Errorf("chat 0 has no finish reason: %v", chats[0].Attrs)
			}
			for tool, kind := range map[string]string{"word-stats": "wasm", "fingerprint": "native", "wc": "shell"} {
				s := only(t, spans, "execute_tool "+tool)
				inTask(t, s, task)
				hasAttrs(t, s, map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool,
					"murmur.tool.kind": kind, "murmur.tool.status": "ok"})
			}
			if len(spans) != 6 {
				t.Errorf("%d spans, want 6: %v", len(spans), names(spans))
			}
			rec := lastRecord(t, workdir)
			if rec.Type != "telemetry" || rec.Fields["spans_exported"] != float64(6) || rec.Fields["spans_dropped"] != float64(0) || rec.Fields["error"] != nil {
				t.Errorf("trace.jsonl ends with %s %v", rec.Type, rec.Fields)
			}
			if c.grpc {
				if h := r.Headers(); len(h) == 0 || h[0].Get("authorization") != "Bearer "+collectorSecret {
					t.Errorf("the collector got headers %v", h)
				}
				if rec.Fields["protocol"] != "grpc" || rec.Fields["from"] != "OTEL_EXPORTER_OTLP_ENDPOINT" {
					t.Errorf("telemetry record %v", rec.Fields)
				}
				noSecretUnder(t, e.project, collectorSecret)
				if strings.Contains(stdout+stderr, collectorSecret) {
					t.Errorf("mur's output holds the collector's credential")
				}
			} else if rec.Fields["endpoint"] != r.URL+"/v1/traces" || rec.Fields["from"] != "observability.otel_endpoint" {
				t.Errorf("telemetry record %v", rec.Fields)
			}
		})
	}
}

// A served task's spans are children of the traceparent its A2A message
// brought: `mur send`, run within the caller's trace, sends a span of
// that trace, and the task's invoke_agent span is that span's child.
func TestAgentExampleTaskUnderA2ATraceparent(t *testing.T) {
	e := setUp(t)
	r := otlpreceiver.StartHTTP(t)
	cmd := exec.Command(e.bin, "run", "--json")
	cmd.Dir = e.project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "MUR_CACHE_DIR=" + e.cache,
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + r.URL, "MURMUR_A2A_TIMEOUT_SECS=300"}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewReader(out)
	first, err := lines.ReadString('\n')
	var launch struct {
		URL       string `json:"url"`
		SessionID string `json:"session_id"`
	}
	if err != nil || json.Unmarshal([]byte(first), &launch) != nil || launch.URL == "" {
		t.Fatalf("no launch line (%v): %q\n%s", err, first, stderr.String())
	}
	task, err := os.ReadFile("task.md")
	if err != nil {
		t.Fatal(err)
	}
	sent, sendErr, code := e.murEnv(e.project, []string{"TRACEPARENT=" + caller}, "send", launch.URL, string(task))
	if code != 0 {
		t.Fatalf("mur send: exit %d\n%s\n%s", code, sent, sendErr)
	}
	rest, _ := bufio.NewReader(lines).ReadString(0)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mur run: %v\n%s%s", err, rest, stderr.String())
	}
	sessionDir := filepath.Join(e.project, "workdir", launch.SessionID)
	var received string
	for _, rec := range records(t, sessionDir) {
		if rec.Type == trace.TypeA2ATaskReceived {
			received, _ = rec.Fields["traceparent_from_caller"].(string)
		}
	}
	parts := strings.Split(received, "-")
	if len(parts) != 4 || parts[1] != callerTrace || parts[2] == callerSpan {
		t.Fatalf("the task received traceparent %q: want a span of the caller's trace from mur send", received)
	}
	s := only(t, r.Spans(), "invoke_agent agent")
	if s.TraceID != callerTrace || s.ParentSpanID != parts[2] {
		t.Errorf("the task span %s/%s is not the child of the A2A message's %s", s.TraceID, s.ParentSpanID, received)
	}
	hasAttrs(t, s, map[string]any{"murmur.task.source": "a2a", "murmur.task.exit_status": "ok"})
	for _, name := range []string{"chat scripted", "execute_tool word-stats", "execute_tool fingerprint", "execute_tool wc"} {
		for _, c := range otlpreceiver.Named(r.Spans(), name) {
			inTask(t, c, s)
		}
	}
}

// A collector that is not there, or takes the export and never answers
// (with an export timeout of ten minutes), leaves the run ok: a
// W-RUN-002 warning on stderr and in bootstrap.log, the spans counted as
// dropped in trace.jsonl, and the run's end held up by the flush deadline
// at most.
func TestAgentExampleCollectorDownOrHanging(t *testing.T) {
	e := setUp(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	hanging := otlpreceiver.StartHTTP(t, otlpreceiver.Hang())
	for _, c := range []struct{ name, endpoint, why string }{
		{"down", down, "connection refused"},
		{"hanging", hanging.URL, "did not take them before the session's end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			stdout, stderr, code := e.murEnv(e.project, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + c.endpoint, "OTEL_EXPORTER_OTLP_TIMEOUT=600000"},
				"run", "-v", "--task", "task.md")
			took := time.Since(start)
			if code != 0 || !strings.Contains(stdout, "\nstatus:  ok\n") {
				t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			// The export timeout is ten minutes; the flush deadline two
			// seconds. A minute is far above the run and far below the
			// export that never ends.
			if took > time.Minute {
				t.Errorf("the run took %s with a collector %s", took, c.name)
			}
			warning := "warning[W-RUN-002]: 6 of 6 spans were not delivered to the OpenTelemetry collector at " + c.endpoint + "/v1/traces"
			if !strings.Contains(stderr, warning) || !strings.Contains(stderr, c.why) {
				t.Errorf("stderr lacks %q (%s):\n%s", warning, c.why, stderr)
			}
			workdir := lineValue(t, stdout, "workdir: ")
			log, _ := os.ReadFile(filepath.Join(workdir, "logs", "bootstrap.log"))
			if !strings.Contains(string(log), warning) {
				t.Errorf("bootstrap.log lacks the warning:\n%s", log)
			}
			rec := lastRecord(t, workdir)
			if rec.Type != "telemetry" || rec.Fields["spans_dropped"] != float64(6) || rec.Fields["spans_exported"] != float64(0) {
				t.Errorf("trace.jsonl ends with %s %v", rec.Type, rec.Fields)
			}
		})
	}
}

// only is the one span named name.
func only(t *testing.T, spans []otlpreceiver.Span, name string) otlpreceiver.Span {
	t.Helper()
	got := otlpreceiver.Named(spans, name)
	if len(got) != 1 {
		t.Fatalf("%d spans named %q among %v", len(got), name, names(spans))
	}
	return got[0]
}

func names(spans []otlpreceiver.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}

func inTask(t *testing.T, s, task otlpreceiver.Span) {
	t.Helper()
	if s.TraceID != task.TraceID || s.ParentSpanID != task.SpanID {
		t.Errorf("%s is not in the task's span: trace %s parent %s, task %s/%s", s.Name, s.TraceID, s.ParentSpanID, task.TraceID, task.SpanID)
	}
}

func hasAttrs(t *testing.T, s otlpreceiver.Span, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if s.Attrs[k] != v {
			t.Errorf("%s: %s = %#v, want %#v", s.Name, k, s.Attrs[k], v)
		}
	}
}

func records(t *testing.T, sessionDir string) []trace.Line {
	t.Helper()
	f, err := os.Open(filepath.Join(sessionDir, trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func lastRecord(t *testing.T, sessionDir string) trace.Line {
	t.Helper()
	recs := records(t, sessionDir)
	if len(recs) == 0 {
		t.Fatal("trace.jsonl is empty")
	}
	return recs[len(recs)-1]
}

// noSecretUnder fails if any file under dir holds secret.
func noSecretUnder(t *testing.T, dir, secret string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the collector's credential", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
