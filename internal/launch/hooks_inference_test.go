package launch_test

// A hook's run-inference through `mur run` and the real openai-compatible
// driver against the loopback mock provider: the first-party compact
// hook summarises a session past its context window, its first attempt
// fails with a 500 and the retry policy sends it again, and the call runs
// under the inference.compaction caps rather than the agent turns'.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/mockprovider"
)

func TestHookRunInferenceThroughTheDriver(t *testing.T) {
	agent, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("lorem ipsum dolor sit amet ", 100)
	const summary = "SUMMARY-1: the agent echoed one and two."
	srv := mockprovider.New(t,
		mockprovider.OpenAI(long, mockprovider.Call{ID: "c1", Name: "echo", Args: `{"text":"one"}`}),
		mockprovider.OpenAI(long, mockprovider.Call{ID: "c2", Name: "echo", Args: `{"text":"two"}`}),
		mockprovider.Error(500, "boom", nil),
		mockprovider.OpenAI(summary),
		mockprovider.OpenAI("done"),
	)
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %[1]s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  max_tokens: 300
  retry: {max_retries: 2, initial_backoff_ms: 10, max_backoff_ms: 20}
  driver:
    artifact: openai-compatible
    config: {stream: false, headers: {x-purpose: turn}}
  compaction:
    dump_summaries: true
    max_tokens: 777
    driver_config: {headers: {x-purpose: compaction}, max_tokens_field: max_completion_tokens}
context:
  max_tokens: 1000
artifacts:
  - name: openai-compatible
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
  - name: compact
    version: "0.1.0"
    runtime: hook
capabilities:
  network:
    allow: [%[1]s]
`, srv.URL)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "publish", filepath.Join(agent, "echo-0.1.0.mur.zip"), "--registry", "local")
	if out, stderr, code := runMur(p.dir, retryEnv, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
	}
	stdout, stderr, code := runMur(p.dir, retryEnv, "run", "--task", "echo one, then two")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := strings.TrimSpace(p.sessionFile("out/result.txt")); got != "done" {
		t.Errorf("result.txt = %q", got)
	}

	// Requests 3 and 4 are the hook's; the others the loop's turns.
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("the provider got %d requests, want 5 (two turns, the hook's two attempts, the last turn)", len(reqs))
	}
	for i, r := range reqs {
		var body map[string]any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		purpose, capKey, capVal, other := "turn", "max_tokens", 300.0, "max_completion_tokens"
		if i == 2 || i == 3 {
			purpose, capKey, capVal, other = "compaction", "max_completion_tokens", 777.0, "max_tokens"
		}
		if got := r.Header.Get("X-Purpose"); got != purpose {
			t.Errorf("request %d: X-Purpose %q, want %q (the driver config it ran under)", i, got, purpose)
		}
		if body[capKey] != capVal || body[other] != nil {
			t.Errorf("request %d: %s = %v, %s = %v; want %s = %v", i, capKey, body[capKey], other, body[other], capKey, capVal)
		}
		if body["stream"] != nil {
			t.Errorf("request %d streams: the overlay dropped the driver config's stream: false", i)
		}
	}

	lines := p.sessionTrace()
	var hookInf []string
	for _, l := range records(lines, trace.TypeInference) {
		if l.Fields["origin"] == "hook:compact" {
			hookInf = append(hookInf, l.Fields["decision"].(string))
		}
	}
	if strings.Join(hookInf, ",") != "error,end_turn" {
		t.Errorf("hook:compact inference records %v, want one per attempt: [error end_turn]", hookInf)
	}
	retries := records(lines, trace.TypeInferenceRetry)
	if len(retries) != 1 {
		t.Fatalf("%d inference_retry records, want 1: %v", len(retries), shape(t, lines))
	}
	if f := retries[0].Fields; f["origin"] != "hook:compact" || f["attempt"] != 1.0 || f["max_retries"] != 2.0 ||
		f["provider_status"] != 500.0 || !strings.HasPrefix(f["error"].(string), "HTTP 500") {
		t.Errorf("inference_retry = %v", f)
	}
	if n := len(records(lines, trace.TypeCompaction)); n != 1 {
		t.Errorf("%d compaction records, want 1", n)
	}
	if dump := p.sessionFile("out/compaction-summaries.jsonl"); !strings.Contains(dump, summary) {
		t.Errorf("the hook did not get the completion: compaction-summaries.jsonl = %s", dump)
	}
	if strings.Contains(stdout+stderr, providerKey) {
		t.Error("the key is in mur's output")
	}
}
