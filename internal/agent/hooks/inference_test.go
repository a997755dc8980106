package hooks

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// recorder is a driver that records each request and answers with the
// wrapped driver (or, when nil, with a canned completion).
type recorder struct {
	next     tools.Tool
	requests []string
	ctxIO    []tools.TaskIO
}

func (r *recorder) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	r.requests = append(r.requests, *in.Data)
	r.ctxIO = append(r.ctxIO, tools.TaskIOFrom(ctx))
	return r.next.Invoke(ctx, in)
}

// run-inference from a hook's on-compaction goes through the capsule's
// driver (wit.md §5.8) and is recorded once per call; each failure of the
// driver reaches the hook as the spec's err text, and with no driver every
// call is refused with "not configured".
func TestRunInference(t *testing.T) {
	for _, tt := range []struct {
		name, hookGuest, driverGuest string
		retries                      int
		err                          string
		records                      []string
	}{
		{name: "0.2.0", hookGuest: hookInfer020, driverGuest: testguest.DriverCanned, records: []string{"end_turn"}},
		{name: "0.4.0", hookGuest: hookInfer040, driverGuest: testguest.DriverCanned, records: []string{"end_turn"}},
		{name: "no driver", hookGuest: hookInfer020,
			err: "infer: inference driver is not configured; add inference.driver.artifact to murmur.yaml"},
		{name: "driver error", hookGuest: hookInfer020, driverGuest: testguest.DriverError, retries: 2,
			err:     "infer: inference driver returned an error: " + testguest.DriverErrorData,
			records: []string{"error", "error", "error"}},
		{name: "no data", hookGuest: hookInfer020, driverGuest: testguest.DriverNoData, retries: 2,
			err: "infer: inference driver returned no data", records: []string{"error"}},
		{name: "trap", hookGuest: hookInfer020, driverGuest: testguest.DriverTrap, retries: 1,
			err: "infer: inference driver 'drv' failed: tool 'drv' trapped", records: []string{"error", "error"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := staged(t, blocking("infer", tt.hookGuest).bound(fnCompaction))
			o := Options{Staged: s, DriverName: "drv", Retry: inference.Policy{MaxRetries: tt.retries, Clock: instantClock{}}}
			if tt.driverGuest != "" {
				o.Driver = driver(t, tt.driverGuest)
			}
			r := startRuntime(t, o)
			rep, err := r.Compaction(context.Background(), compaction)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("compaction error = %v, want %q", err, tt.err)
				}
			} else {
				want := []agent.HookMessage{{Role: "assistant", Content: "compacted summary"}}
				if err != nil || rep == nil || !reflect.DeepEqual(rep.Messages, want) {
					t.Fatalf("compaction = %+v, %v", rep, err)
				}
			}
			recs := r.TakeInferences()
			if len(recs) != len(tt.records) {
				t.Fatalf("records = %+v, want decisions %v", recs, tt.records)
			}
			for i, rec := range recs {
				if retried := i < len(recs)-1; (rec.Retry != nil) != retried || retried && rec.Retry.Attempt != uint32(i+1) {
					t.Errorf("record %d retry = %+v", i, rec.Retry)
				}
				// The retry record has the driver's own error, as the
				// loop's has; the hook's err text is the spec's wording.
				if rec.Retry != nil && (rec.Retry.Error == "" || strings.HasPrefix(rec.Retry.Error, "inference driver")) {
					t.Errorf("record %d retry error = %q, want the driver's text", i, rec.Retry.Error)
				}
				if rec.Hook != "infer" || rec.Model != "m-1" || rec.Decision != tt.records[i] || rec.InputTokens == 0 ||
					(rec.Decision == "end_turn") != (rec.OutputTokens > 0) {
					t.Errorf("record %d = %+v", i, rec)
				}
			}
		})
	}
}

// The request is built exactly like an agent turn's payload with the
// hook's own system prompt (none: "") and no tools; a compaction call
// carries inference.compaction.max_tokens and runs the compaction driver;
// a hook's call never reaches the A2A task's I/O.
func TestRunInferencePayload(t *testing.T) {
	s := staged(t, blocking("infer", hookInfer020).bound(fnCompaction))
	plain, comp := &recorder{next: driver(t, testguest.DriverCanned)}, &recorder{next: driver(t, testguest.DriverCanned)}
	r := startRuntime(t, Options{Staged: s, Driver: plain, CompactionDriver: comp, CompactionMaxTokens: 512})
	ctx := tools.WithTaskIO(context.Background(), nopIO{})
	if _, err := r.Compaction(ctx, compaction); err != nil {
		t.Fatal(err)
	}
	want := `{"max_tokens":512,"messages":[{"content":[{"text":"summarise the history","type":"text"}],"role":"user"}],"model":"m-1","params":{},"system":"","tools":[]}`
	if len(plain.requests) != 0 || len(comp.requests) != 1 || comp.requests[0] != want {
		t.Fatalf("driver requests: plain %q, compaction %q; want compaction only:\n%s", plain.requests, comp.requests, want)
	}
	if comp.ctxIO[0] != nil {
		t.Error("run-inference handed the task's I/O to the driver")
	}
}

// A compaction call's output cap is the manifest's
// inference.compaction.max_tokens, not inference.max_tokens (an agent
// turn's cap, which would truncate a summary), and spend is admitted at
// it: a ceiling between the compaction cap and the default admits the
// call only when the key is set (seed 0.10.0).
func TestRunInferenceCompactionCap(t *testing.T) {
	for _, tt := range []struct {
		name       string
		compaction *uint32
		limit      uint64
		maxTokens  string // in the payload; "" when refused
	}{
		{"key set", ptr[uint32](2000), 1 << 20, `"max_tokens":2000`},
		{"key unset", nil, 1 << 20, `"max_tokens":8192`},
		{"set, under a ceiling the default exceeds", ptr[uint32](2000), 5000, `"max_tokens":2000`},
		{"unset, same ceiling", nil, 5000, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := staged(t, blocking("infer", hookInfer020).bound(fnCompaction))
			s.Capsule.Inference.MaxTokens = ptr[uint32](64)
			s.Capsule.Inference.Compaction = &manifest.Compaction{MaxTokens: tt.compaction}
			rec := &recorder{next: driver(t, testguest.DriverCanned)}
			r := startRuntime(t, Options{Staged: s, Driver: rec, Meter: inference.NewMeter(&tt.limit)})
			_, err := r.Compaction(context.Background(), compaction)
			if tt.maxTokens == "" {
				if err == nil || !strings.Contains(err.Error(), "spend ceiling reached") || len(rec.requests) != 0 {
					t.Fatalf("error %v after %d requests, want the refusal before any", err, len(rec.requests))
				}
				return
			}
			if err != nil || len(rec.requests) != 1 || !strings.Contains(rec.requests[0], tt.maxTokens) {
				t.Fatalf("error %v, requests %q; want one with %s", err, rec.requests, tt.maxTokens)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestPayloadDefaults(t *testing.T) {
	sys := "<be brief & exact>"
	got, err := payloadJSON("gpt", DefaultMaxTokens, []agent.HookMessage{{Role: "user", Content: "a<b"}}, sys)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"max_tokens":8192,"messages":[{"content":[{"text":"a<b","type":"text"}],"role":"user"}],"model":"gpt","params":{},"system":"<be brief & exact>","tools":[]}`
	if got != want {
		t.Errorf("payload\n%s\nwant\n%s", got, want)
	}
}

type nopIO struct{}

func (nopIO) EmitChunk(context.Context, string, bool)              {}
func (nopIO) RequestInput(context.Context, string) (string, error) { return "", nil }

// Under transport: process there is no driver a hook can call.
func TestRunInferenceProcessTransport(t *testing.T) {
	s := staged(t, blocking("infer", hookInfer020).bound(fnCompaction))
	s.Capsule.Inference.Transport = "process"
	r := startRuntime(t, Options{Staged: s, Driver: driver(t, testguest.DriverCanned)})
	if _, err := r.Compaction(context.Background(), compaction); err == nil || err.Error() != "infer: "+ErrProcessTransport {
		t.Errorf("error = %v", err)
	}
	if recs := r.TakeInferences(); len(recs) != 0 {
		t.Errorf("records for a call never made: %v", recs)
	}
}

// A driver error echoing the capsule's key reaches the hook redacted, and
// so does the retry record the trace gets of each failed attempt.
func TestRunInferenceRedactsTheKey(t *testing.T) {
	s := staged(t, blocking("infer", hookInfer020).bound(fnCompaction))
	s.Capsule.Inference.HasAPIKey, s.Capsule.Inference.APIKey = true, "nope"
	s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, redact.New("nope")) // as staging makes it
	r := startRuntime(t, Options{Staged: s, Driver: driver(t, testguest.DriverError),
		Retry: inference.Policy{MaxRetries: 1, Clock: instantClock{}}})
	_, err := r.Compaction(context.Background(), compaction)
	if err == nil || strings.Contains(err.Error(), "nope") || !strings.Contains(err.Error(), "unknown model: [REDACTED]") {
		t.Errorf("error = %v", err)
	}
	recs := r.TakeInferences()
	if len(recs) != 2 || recs[0].Retry == nil {
		t.Fatalf("records %+v, want a retried attempt and the last", recs)
	}
	if e := recs[0].Retry.Error; strings.Contains(e, "nope") || !strings.Contains(e, "[REDACTED]") {
		t.Errorf("the retry record's error is %q", e)
	}
}

// instantClock ends every backoff at once.
type instantClock struct{}

func (instantClock) Now() time.Time { return time.Unix(1_000_000, 0) }
func (instantClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- time.Unix(1_000_000, 0)
	return ch
}

// run-inference is admitted by the session's spend meter: past the
// ceiling the hook gets the refusal and the driver is not called; a
// completed call is charged to the same meter the loop reads.
func TestRunInferenceSpendCeiling(t *testing.T) {
	for _, tt := range []struct {
		name  string
		limit uint64
		calls int
	}{
		{"admitted", 1 << 20, 1},
		{"refused", 100, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := staged(t, blocking("infer", hookInfer020).bound(fnCompaction))
			rec := &recorder{next: driver(t, testguest.DriverCanned)}
			m := inference.NewMeter(&tt.limit)
			r := startRuntime(t, Options{Staged: s, Driver: rec, Meter: m})
			_, err := r.Compaction(context.Background(), compaction)
			if len(rec.requests) != tt.calls {
				t.Fatalf("%d driver calls, want %d", len(rec.requests), tt.calls)
			}
			if tt.calls == 0 {
				if err == nil || !strings.Contains(err.Error(), "spend ceiling reached: inference.max_session_tokens is 100") {
					t.Errorf("error = %v, want the refusal", err)
				}
				return
			}
			if err != nil || m.Spent() == 0 {
				t.Errorf("error %v, spent %d", err, m.Spent())
			}
		})
	}
}
