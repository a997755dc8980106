package launch_test

// inference.retry and inference.max_session_tokens through the mur binary,
// the real openai-compatible driver and the loopback mock provider: which
// provider failures are sent again, what the trace records, how the run
// ends, and that no request goes out past the spend ceiling.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/mockprovider"
)

// retryProject is an openai-compatible agent capsule against srv with
// extra inference keys, installed.
func retryProject(t *testing.T, srv *mockprovider.Server, extra string) *project {
	t.Helper()
	return driverProject(t, "openai-compatible", srv, extra)
}

// driverProject is retryProject with another built-in driver.
func driverProject(t *testing.T, driver string, srv *mockprovider.Server, extra string) *project {
	t.Helper()
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: %s
    config: {stream: false}
%sartifacts:
  - name: %s
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s]
`, srv.URL, driver, extra, driver, srv.URL)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := runMur(p.dir, retryEnv, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
	}
	return p
}

var retryEnv = []string{"MOCK_PROVIDER_KEY=" + providerKey}

func TestInferenceRetryThroughTheDriver(t *testing.T) {
	const fast = "  retry: {max_retries: 2, initial_backoff_ms: 10, max_backoff_ms: 20}\n"
	for _, tt := range []struct {
		name     string
		extra    string
		replies  []mockprovider.Reply
		code     int
		requests int
		shape    []string
		statuses []float64 // provider_status of each retry record
		stderr   string
	}{
		{name: "429 with Retry-After then success", extra: fast, code: 0, requests: 2,
			replies:  []mockprovider.Reply{mockprovider.Error(429, "slow down", map[string]string{"Retry-After": "1"}), mockprovider.OpenAI("done")},
			shape:    []string{"task_start", "session_start", "inference_retry", "inference:end_turn", "inference_usage", "session_end:ok", "task_end:ok"},
			statuses: []float64{429}},
		{name: "500 then success", extra: fast, code: 0, requests: 2,
			replies:  []mockprovider.Reply{mockprovider.Error(500, "boom", nil), mockprovider.OpenAI("done")},
			shape:    []string{"task_start", "session_start", "inference_retry", "inference:end_turn", "inference_usage", "session_end:ok", "task_end:ok"},
			statuses: []float64{500}},
		{name: "retries exhausted", extra: fast, code: 1, requests: 3, stderr: "HTTP 503",
			replies:  []mockprovider.Reply{mockprovider.Error(503, "down", nil), mockprovider.Error(503, "down", nil), mockprovider.Error(503, "down", nil)},
			shape:    []string{"task_start", "session_start", "inference_retry", "inference_retry", "session_end:failed", "task_end:ok"},
			statuses: []float64{503, 503}},
		{name: "malformed JSON not retried", extra: fast, code: 1, requests: 1,
			replies: []mockprovider.Reply{{Body: `{"choices": [`}},
			shape:   []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{name: "401 not retried", extra: fast, code: 1, requests: 1, stderr: "E-RUN-027",
			replies: []mockprovider.Reply{mockprovider.Error(401, "bad key", nil)},
			shape:   []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{name: "no retry block: a 500 ends the run", code: 1, requests: 1, stderr: "HTTP 500",
			replies: []mockprovider.Reply{mockprovider.Error(500, "boom", nil), mockprovider.OpenAI("done")},
			shape:   []string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{name: "spend ceiling", extra: fast + "  max_session_tokens: 1000\n", code: 1, requests: 0,
			stderr:  "spend ceiling reached: inference.max_session_tokens is 1000",
			replies: []mockprovider.Reply{mockprovider.OpenAI("done")},
			shape:   []string{"task_start", "session_start", "spend_ceiling_reached", "session_end:failed", "task_end:ok"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := mockprovider.New(t, tt.replies...)
			p := retryProject(t, srv, tt.extra)
			stdout, stderr, code := runMur(p.dir, retryEnv, "run", "--task", "hi")
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Fatalf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, tt.code, tt.stderr, stdout, stderr)
			}
			if n := len(srv.Requests()); n != tt.requests {
				t.Errorf("the provider got %d requests, want %d", n, tt.requests)
			}
			lines := p.sessionTrace()
			if got := shape(t, lines); !slices.Equal(got, tt.shape) {
				t.Errorf("trace\n got  %v\n want %v", got, tt.shape)
			}
			var statuses []float64
			for i, l := range lines {
				if l.Type != trace.TypeInferenceRetry {
					continue
				}
				f := l.Fields
				statuses = append(statuses, f["provider_status"].(float64))
				if f["origin"] != "turn" || f["attempt"] != float64(len(statuses)) || f["max_retries"] != float64(2) ||
					f["reason"] != "driver_error" || !strings.HasPrefix(f["error"].(string), "HTTP ") {
					t.Errorf("retry record %d: %v", i, f)
				}
				if f["provider_status"] == float64(429) && (f["retry_after_ms"] != float64(1000) || f["delay_ms"] != float64(1000)) {
					t.Errorf("Retry-After did not set the delay: %v", f)
				}
			}
			if !slices.Equal(statuses, tt.statuses) {
				t.Errorf("retried statuses %v, want %v", statuses, tt.statuses)
			}
			if strings.Contains(stdout+stderr, providerKey) {
				t.Error("the key is in mur's output")
			}
		})
	}
}

// SIGINT during a backoff (a Retry-After of an hour) stops the run at
// once: exit 130, and no second request.
func TestInferenceRetryInterrupted(t *testing.T) {
	srv := mockprovider.New(t, mockprovider.Error(429, "slow down", map[string]string{"Retry-After": "3600"}))
	p := retryProject(t, srv, "  retry: {max_retries: 3}\n")
	cmd := exec.Command(env.mur, "--log-level", "info", "run", "--task", "hi")
	cmd.Dir = p.dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}, retryEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	backoff, copied := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(pr)
		seen := false
		for sc.Scan() {
			errb.WriteString(sc.Text() + "\n")
			if !seen && strings.Contains(sc.Text(), "retrying after a backoff") {
				seen = true
				close(backoff)
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); pw.Close() }()
	var start time.Time
	select {
	case <-backoff:
		start = time.Now()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	case err := <-exited:
		<-copied
		t.Fatalf("mur exited (%v) before its backoff\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	err := <-exited
	took := time.Since(start)
	<-copied
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("mur ended with %v, want exit 130\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	if took > 30*time.Second {
		t.Errorf("mur took %s to stop after SIGINT in a backoff of an hour", took)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the provider got %d requests, want 1", n)
	}
}

// A provider (or a driver) reporting absurd usage cannot wrap the spend
// meter back to empty: a prompt count of 2^64-1 plus cached tokens fills
// the meter, and the next turn is refused before any request is sent.
func TestSpendCeilingAbsurdUsage(t *testing.T) {
	hostile := mockprovider.Reply{Body: `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"tool_calls",` +
		`"message":{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"nothing","arguments":"{}"}}]}}],` +
		`"usage":{"prompt_tokens":18446744073709551615,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":2}}}`}
	srv := mockprovider.New(t, hostile, mockprovider.OpenAI("done"))
	p := retryProject(t, srv, "  max_session_tokens: 100000\n  max_turns: 3\n")
	stdout, stderr, code := runMur(p.dir, retryEnv, "run", "--task", "hi")
	if code != 1 || !strings.Contains(stderr, "spend ceiling reached: inference.max_session_tokens is 100000") {
		t.Fatalf("exit %d, want the spend ceiling refusal\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the provider got %d requests, want 1: the second went out past the ceiling", n)
	}
	want := []string{"task_start", "session_start", "inference:tool_call", "inference_usage", "tool_call:nothing:error", "spend_ceiling_reached", "session_end:failed", "task_end:ok"}
	if got := shape(t, p.sessionTrace()); !slices.Equal(got, want) {
		t.Errorf("trace\n got  %v\n want %v", got, want)
	}
}

// Both built-in drivers under a retry policy: a 429 is retried and the run
// ends ok; a 401 is sent once, however many retries are allowed.
func TestInferenceRetryBothDrivers(t *testing.T) {
	const retry = "  retry: {max_retries: 4, initial_backoff_ms: 10, max_backoff_ms: 20}\n"
	for _, dc := range driverCases {
		for _, tt := range []struct {
			name     string
			first    mockprovider.Reply
			code     int
			requests int
		}{
			{"429", mockprovider.Error(429, "slow down", map[string]string{"retry-after-ms": "20"}), 0, 2},
			{"401", mockprovider.Error(401, "invalid x-api-key", nil), 1, 1},
		} {
			t.Run(dc.driver+" "+tt.name, func(t *testing.T) {
				ok := mockprovider.OpenAI("done")
				if dc.driver == "anthropic" {
					ok = mockprovider.Anthropic("", "done")
				}
				srv := mockprovider.New(t, tt.first, ok)
				p := driverProject(t, dc.driver, srv, retry)
				stdout, stderr, code := runMur(p.dir, retryEnv, "run", "--task", "hi")
				if code != tt.code {
					t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
				}
				if n := len(srv.Requests()); n != tt.requests {
					t.Errorf("the provider got %d requests, want %d", n, tt.requests)
				}
			})
		}
	}
}
