package agent

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// instantClock fires every backoff at once and records it.
type instantClock struct{ delays []time.Duration }

func (c *instantClock) Now() time.Time { return time.Unix(1_000_000, 0) }
func (c *instantClock) After(d time.Duration) <-chan time.Time {
	c.delays = append(c.delays, d)
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

func failed(data string, md ...tools.Pair) tools.ToolResult {
	return tools.ToolResult{Status: tools.StatusError, Data: &data, Metadata: md}
}

func md(kv ...string) []tools.Pair {
	var out []tools.Pair
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, tools.Pair{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

const modelErr = `{"stop_reason":"error","error":"overloaded"}`

// The loop's retries with Go driver doubles: which failures are sent
// again, the inference_retry records, the backoffs, and how the attempt
// ends once the retries are spent.
func TestLoopRetries(t *testing.T) {
	for _, tt := range []struct {
		name    string
		answers []tools.ToolResult
		retries uint32
		kind    Kind
		calls   int
		reasons []string
		delays  []time.Duration
		trace   []string
	}{
		{name: "429 then success, Retry-After wins", retries: 3, calls: 2,
			answers: []tools.ToolResult{failed("HTTP 429: slow down", md("transient", "true", "error_class", "rate_limited", "provider_status", "429", "retry_after_ms", "1500")...), passed(endText)},
			reasons: []string{"driver_error"}, delays: []time.Duration{1500 * time.Millisecond},
			trace: []string{"task_start", "session_start", "inference_retry", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "stop_reason error then success", retries: 1, calls: 2,
			answers: []tools.ToolResult{passed(modelErr), passed(endText)},
			reasons: []string{"model_error"}, delays: []time.Duration{50 * time.Millisecond},
			trace: []string{"task_start", "session_start", "inference_retry", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{name: "exhausted", retries: 2, calls: 3, kind: KindDriver,
			answers: []tools.ToolResult{failed("HTTP 500: boom", md("transient", "true", "provider_status", "500")...)},
			reasons: []string{"driver_error", "driver_error"}, delays: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
			trace: []string{"task_start", "session_start", "inference_retry", "inference_retry", "session_end:failed", "task_end:ok"}},
		{name: "stop_reason error exhausted", retries: 1, calls: 2, kind: KindModelError,
			answers: []tools.ToolResult{passed(modelErr)},
			reasons: []string{"model_error"}, delays: []time.Duration{50 * time.Millisecond},
			trace: []string{"task_start", "session_start", "inference_retry", "inference:text", "session_end:failed", "task_end:ok"}},
		{name: "not transient", retries: 3, calls: 1, kind: KindDriver,
			answers: []tools.ToolResult{failed("HTTP 400: bad", md("transient", "false", "provider_status", "400")...)},
			trace:   []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{name: "credential rejected", retries: 3, calls: 1, kind: KindCredentialRejected,
			answers: []tools.ToolResult{failed("HTTP 401: no", md("transient", "true", "error_class", "credential_rejected", "provider_status", "401")...)},
			trace:   []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{name: "malformed", retries: 3, calls: 1, kind: KindResponse,
			answers: []tools.ToolResult{passed(`{"stop_reason":`)},
			trace:   []string{"task_start", "session_start", "task_end:failed", "session_end:failed"}},
		{name: "no retry block", calls: 1, kind: KindDriver,
			answers: []tools.ToolResult{failed("HTTP 503: later", md("transient", "true")...)},
			trace:   []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := testStaged(t, func(c *manifest.Capsule) {
				if tt.retries > 0 {
					c.Inference.Retry = &manifest.Retry{MaxRetries: tt.retries, InitialBackoffMS: 100, MaxBackoffMS: 1000}
				}
			})
			d := &driver{answers: tt.answers}
			clock := &instantClock{}
			p := inference.NewPolicy(s.Capsule.Inference.Retry)
			p.Clock, p.Jitter = clock, func() float64 { return 0 }
			_, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: tools.NewToolSet(), Retry: &p,
				Tasks: &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}})
			var e *diag.Error
			if tt.kind == 0 && err != nil || tt.kind != 0 && (!errors.As(err, &e) || KindOf(err) != tt.kind) {
				t.Fatalf("err = %v, want kind %d", err, tt.kind)
			}
			if len(d.requests) != tt.calls {
				t.Errorf("driver called %d times, want %d", len(d.requests), tt.calls)
			}
			lines := readTrace(t, s)
			if got := types(lines); !slices.Equal(got, tt.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, tt.trace)
			}
			var reasons []string
			for i, l := range find(lines, trace.TypeInferenceRetry) {
				f := l.Fields
				reasons = append(reasons, f["reason"].(string))
				if f["attempt"] != float64(i+1) || f["max_retries"] != float64(tt.retries) || f["origin"] != "turn" ||
					f["charged_tokens"].(float64) == 0 || f["error"] == "" {
					t.Errorf("retry record %d: %v", i, f)
				}
			}
			if !slices.Equal(reasons, tt.reasons) || !slices.Equal(clock.delays, tt.delays) {
				t.Errorf("reasons %v delays %v, want %v %v", reasons, clock.delays, tt.reasons, tt.delays)
			}
		})
	}
}

// Real WAT driver components: a trap (dispatch failure) and an error
// status are retried until the budget is spent; an answer with no data
// never is.
func TestLoopRetriesWATDrivers(t *testing.T) {
	linker, err := host.NewToolLinker()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		guest   string
		kind    Kind
		retries int
	}{
		{testguest.DriverTrap, KindDriver, 2},
		{testguest.DriverError, KindDriver, 2},
		{testguest.DriverNoData, KindResponse, 0},
	} {
		t.Run(tt.guest, func(t *testing.T) {
			s := testStaged(t, func(c *manifest.Capsule) {
				c.Inference.Retry = &manifest.Retry{MaxRetries: 2, InitialBackoffMS: 10, MaxBackoffMS: 10}
			})
			d, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "d", Component: benchGuests.Compile(t, tt.guest), Linker: linker,
				Limits: component.Limits{MaxMemoryBytes: 64 << 20, Deadline: time.Minute}})
			if err != nil {
				t.Fatal(err)
			}
			p := inference.NewPolicy(s.Capsule.Inference.Retry)
			p.Clock = &instantClock{}
			_, err = Run(context.Background(), Options{Staged: s, Driver: d, Tools: tools.NewToolSet(), Retry: &p,
				Tasks: &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}})
			var e *diag.Error
			if !errors.As(err, &e) || KindOf(err) != tt.kind {
				t.Fatalf("err = %v, want kind %d", err, tt.kind)
			}
			if n := len(find(readTrace(t, s), trace.TypeInferenceRetry)); n != tt.retries {
				t.Errorf("%d retry records, want %d", n, tt.retries)
			}
		})
	}
}

// waitingClock signals each backoff and never ends it.
type waitingClock struct{ waiting chan time.Duration }

func (c waitingClock) Now() time.Time { return time.Unix(1_000_000, 0) }
func (c waitingClock) After(d time.Duration) <-chan time.Time {
	c.waiting <- d
	return nil
}

// A cancellation during a backoff ends the task as cancelled at once,
// with no further driver call.
func TestLoopCancelledDuringBackoff(t *testing.T) {
	s := testStaged(t, func(c *manifest.Capsule) {
		c.Inference.Retry = &manifest.Retry{MaxRetries: 5, InitialBackoffMS: 3_600_000, MaxBackoffMS: 3_600_000}
	})
	d := &driver{answers: []tools.ToolResult{failed("HTTP 503: later", md("provider_status", "503")...)}}
	clock := waitingClock{waiting: make(chan time.Duration)}
	p := inference.NewPolicy(s.Capsule.Inference.Retry)
	p.Clock = clock
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-clock.waiting
		cancel(errors.New("interrupted"))
	}()
	_, err := Run(ctx, Options{Staged: s, Driver: d, Tools: tools.NewToolSet(), Retry: &p,
		Tasks: &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}})
	var e *diag.Error
	if !errors.As(err, &e) || KindOf(err) != KindCancelled {
		t.Fatalf("err = %v, want cancelled", err)
	}
	if len(d.requests) != 1 {
		t.Errorf("%d driver calls, want 1", len(d.requests))
	}
}

// The spend ceiling: the call that would pass it is refused before
// dispatch with the spec's text, spend_ceiling_reached is recorded, the
// attempt fails; provider usage settles what a call cost and is recorded
// beside the inference record.
func TestLoopSpendCeiling(t *testing.T) {
	usageTool := `{"stop_reason":"tool_call","content":[{"type":"tool_call","id":"1","name":"t","input":{"q":"x"}}],"usage":{"input_tokens":40,"output_tokens":2,"cached_tokens":3}}`
	for _, tt := range []struct {
		name    string
		ceiling uint64
		calls   int
		trace   []string
	}{
		{"first call refused", 100, 0,
			[]string{"task_start", "session_start", "spend_ceiling_reached", "session_end:failed", "task_end:ok"}},
		{"second call refused", 8192 + 200, 1,
			[]string{"task_start", "session_start", "inference:tool_call", "inference_usage", "tool_call", "spend_ceiling_reached", "session_end:failed", "task_end:ok"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := testStaged(t, func(c *manifest.Capsule) { c.Inference.MaxSessionTokens = &tt.ceiling })
			d := &driver{answers: []tools.ToolResult{passed(usageTool), passed(endText)}}
			ts := tools.NewToolSet()
			ts.Add("t", answering("ok"))
			_, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: ts,
				Tasks: &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}})
			var e *diag.Error
			if !errors.As(err, &e) || KindOf(err) != KindSpendCeiling ||
				!strings.HasPrefix(e.Msg, "spend ceiling reached: inference.max_session_tokens is ") || !strings.Contains(e.Msg, "retrying will not help") {
				t.Fatalf("err = %v, want the spend ceiling refusal", err)
			}
			if len(d.requests) != tt.calls {
				t.Errorf("%d driver calls, want %d", len(d.requests), tt.calls)
			}
			lines := readTrace(t, s)
			if got := types(lines); !slices.Equal(got, tt.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, tt.trace)
			}
			rec := find(lines, trace.TypeSpendCeilingReached)[0].Fields
			if rec["max_session_tokens"] != float64(tt.ceiling) || rec["requested_tokens"].(float64) <= 8192 {
				t.Errorf("spend_ceiling_reached %v", rec)
			}
			if tt.calls == 1 {
				// Settled with the provider's counts: 40 + 3 + 2.
				if rec["spent_tokens"] != float64(45) {
					t.Errorf("spent %v, want the provider's 45", rec["spent_tokens"])
				}
				u := find(lines, trace.TypeInferenceUsage)[0].Fields
				inf := find(lines, trace.TypeInference)[0].Fields
				if u["input_tokens"] != float64(40) || u["cached_tokens"] != float64(3) || u["cache_write_tokens"] != nil || inf["input_tokens"] == float64(40) {
					t.Errorf("usage %v beside inference %v", u, inf)
				}
			}
			if got := readFile(t, filepath.Join(s.OutDir, "result.txt")); !strings.HasPrefix(got, "error: spend ceiling reached") {
				t.Errorf("out/result.txt = %q", got)
			}
		})
	}
}

// A hook's retried run-inference reaches the trace as an inference_retry
// line with origin hook:<name>, after the hook's inference line, with
// the §13 fields in order.
func TestHookRetryRecords(t *testing.T) {
	s := testStaged(t, nil)
	h := &recHooks{inferences: []HookInference{
		{Hook: "judge", Model: "small", InputTokens: 5, Decision: "error", Retry: &HookRetry{Attempt: 1, MaxRetries: 2,
			Reason: inference.ReasonDriverError, ProviderStatus: 429, Error: "HTTP 429: slow", Delay: 1500 * time.Millisecond,
			RetryAfter: 1500 * time.Millisecond, ChargedTokens: 5}},
		{Hook: "judge", Model: "small", InputTokens: 5, OutputTokens: 2, Decision: "end_turn"}}}
	if err := run(t, s, &driver{answers: []tools.ToolResult{passed(endText)}}, h, &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}); err != nil {
		t.Fatal(err)
	}
	lines := readTrace(t, s)
	want := []string{"task_start", "session_start", "inference:error", "inference_retry", "inference:end_turn", "inference:end_turn", "session_end:ok", "task_end:ok"}
	if got := types(lines); !slices.Equal(got, want) {
		t.Fatalf("trace\n got  %v\n want %v", got, want)
	}
	r := lines[3]
	keys := []string{"event_type", "session_id", "timestamp", "origin", "turn", "attempt", "max_retries", "reason", "provider_status", "error", "delay_ms", "retry_after_ms", "charged_tokens"}
	if !slices.Equal(r.Keys, keys) || r.Fields["origin"] != "hook:judge" || r.Fields["delay_ms"] != float64(1500) || r.Fields["provider_status"] != float64(429) {
		t.Errorf("retry record %v (keys %v)", r.Fields, r.Keys)
	}
}
