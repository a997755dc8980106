package launch_test

// The session's secrets never leave through a guest. A provider stand-in
// that knows the capsule's api key streams it back to the real
// first-party drivers split across SSE deltas at every offset, byte by
// byte, in the thinking block, JSON-escaped (so no byte run of the answer
// is the key and the host's response redaction cannot see it) and in a
// tool call's arguments, then answers a second task whole with the key
// escaped. A watcher on Murmur's stream/watch and a client on
// message/stream collect every frame: put back together in order, the
// frames hold no key, and neither do result.txt, trace.jsonl, the logs,
// any file of the project or mur's output. A raw_api_key driver that
// prints its environment has the key taken out of mur's stdout.

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/remote/a2a"
	"github.com/mur-go/mur/internal/testing/mockprovider"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const marker = "[REDACTED]"

// escapedKey stands for the key in a scripted text; the provider sends it
// JSON-escaped (\u0073k-…).
const escapedKey = "ESCAPED-KEY"

func escaped(r mockprovider.Reply) mockprovider.Reply {
	esc := fmt.Sprintf(`\u%04x`, providerKey[0]) + providerKey[1:]
	r.Body = strings.ReplaceAll(r.Body, escapedKey, esc)
	for i, ev := range r.Events {
		r.Events[i] = strings.ReplaceAll(ev, escapedKey, esc)
	}
	return r
}

type leakCase struct {
	driver   string
	streamed func(thinking, pieces []string, calls ...mockprovider.Call) mockprovider.Reply
	whole    func(text string) mockprovider.Reply
}

var leakCases = []leakCase{
	{"openai-compatible", mockprovider.OpenAIStreamReasoning, func(text string) mockprovider.Reply { return mockprovider.OpenAI(text) }},
	{"anthropic", mockprovider.AnthropicStreamThinking, func(text string) mockprovider.Reply { return mockprovider.Anthropic("", text) }},
}

// keyPieces is a text streamed with the key split in two at every
// offset, then one byte a delta, then escaped in one delta, each copy
// after a label of its own (labels, in order).
func keyPieces() (pieces, labels []string) {
	for i := 1; i < len(providerKey); i++ {
		label := fmt.Sprintf(" %d:", i)
		pieces = append(pieces, label+providerKey[:i], providerKey[i:])
		labels = append(labels, label)
	}
	pieces = append(pieces, " bytes:")
	for i := range len(providerKey) {
		pieces = append(pieces, providerKey[i:i+1])
	}
	pieces = append(pieces, " escaped:"+escapedKey, " end.")
	return pieces, append(labels, " bytes:", " escaped:", " end.")
}

// eachRedacted checks that text has every label in order and a marker
// between each two: every copy of the key came out redacted (by whichever
// layer caught it first: the host's response reader or the task's
// stream), none dropped.
func eachRedacted(t *testing.T, text string, labels []string) {
	t.Helper()
	rest := text
	for i, l := range labels {
		at := strings.Index(rest, l)
		if at < 0 {
			t.Errorf("label %q missing from the watched text:\n%s", l, text)
			return
		}
		if i > 0 && !strings.Contains(rest[:at], marker) {
			t.Errorf("no %s before %q in the watched text:\n%s", marker, l, text)
		}
		rest = rest[at+len(l):]
	}
}

func TestProviderStreamingTheKeyNeverReachesAWatcher(t *testing.T) {
	agentPkgsDir, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	for _, lc := range leakCases {
		t.Run(lc.driver, func(t *testing.T) {
			pieces, labels := keyPieces()
			k := providerKey
			srv := mockprovider.New(t,
				// Task 1, turn 1: thinking, text and a tool call, all streamed.
				escaped(lc.streamed([]string{"thinking about " + k[:9], k[9:20], k[20:] + " carefully"}, pieces,
					mockprovider.Call{ID: "c1", Name: "echo", Args: `{"text":"` + k + `"}`})),
				// Task 1, turn 2: the answer, streamed.
				lc.streamed(nil, []string{"done " + k[:3], k[3:15], k[15:] + "!"}),
				// Task 2: a whole answer.
				escaped(lc.whole("plain "+escapedKey+" answer")))
			p := &project{t: t, dir: t.TempDir()}
			yaml := fmt.Sprintf(`name: leaky
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: %s
artifacts:
  - name: %s
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
capabilities:
  network:
    allow: [%s]
lifecycle:
  task_acceptance: queue
  after_task: sleep
`, srv.URL, lc.driver, lc.driver, srv.URL)
			if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			envKey := []string{"MOCK_PROVIDER_KEY=" + providerKey}
			p.mur(0, "publish", filepath.Join(agentPkgsDir, "echo-0.1.0.mur.zip"), "--registry", "local")
			if out, stderr, code := runMur(p.dir, envKey, "install"); code != 0 {
				t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
			}
			c := serveCapsuleWith(t, p, yaml, envKey, nil)

			w := startWatch(t, c.base)
			// client is the text of every message/stream event in order, as
			// a client puts the task back together; whole the same events,
			// every string, for a search of each one alone.
			var client, whole strings.Builder
			for i, task := range []string{"first task", "second task"} {
				for ev, err := range sdkClient(t, c.base, sdk.Version).SendStreamingMessage(t.Context(), &sdk.SendMessageRequest{
					Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart(task))}) {
					if err != nil {
						t.Fatalf("task %d stream: %v\n%s", i, err, c.stderr.String())
					}
					client.WriteString(eventText(ev))
					b, err := json.Marshal(ev)
					if err != nil {
						t.Fatal(err)
					}
					whole.WriteString(strings.Join(jsonStrings(t, b), "\x00"))
				}
			}
			c.stop()
			frames := w.wait(t)

			if strings.Contains(client.String(), providerKey) || strings.Contains(whole.String(), providerKey) ||
				!strings.Contains(client.String(), marker) {
				t.Errorf("message/stream events, put together: %s", client.String())
			}
			var every, text, thinking strings.Builder
			for _, f := range frames {
				var body watchBody
				if err := json.Unmarshal(f.Data, &body); err != nil {
					t.Fatalf("frame %s: %v", f.Data, err)
				}
				every.WriteString(body.text())
				switch f.Event {
				case "text":
					text.WriteString(body.Text)
				case "thinking":
					thinking.WriteString(body.Text)
				}
				whole.WriteString(strings.Join(jsonStrings(t, f.Data), "\x00"))
			}
			if strings.Contains(every.String(), providerKey) || strings.Contains(whole.String(), providerKey) {
				t.Errorf("stream/watch frames, put together: %s", every.String())
			}
			for _, run := range [][]string{labels, {"done ", "!"}, {"plain ", " answer"}} {
				eachRedacted(t, text.String(), run)
			}
			eachRedacted(t, thinking.String(), []string{"thinking about ", " carefully"})
			assertNoKey(t, p.dir, c.stderr.String())
			trace, _ := os.ReadFile(filepath.Join(p.dir, "workdir", c.sessionID, "trace.jsonl"))
			if !strings.Contains(string(trace), `"input":{"text":"`) || !strings.Contains(string(trace), marker) {
				t.Errorf("the tool call's input is not in the trace, redacted:\n%s", trace)
			}
		})
	}
}

// watch is a stream/watch observer collecting every frame.
type watch struct {
	mu     sync.Mutex
	frames []a2a.WatchEvent
	done   chan error
}

// startWatch connects an observer and returns once the capsule has
// acknowledged it, so no frame is missed.
func startWatch(t *testing.T, base string) *watch {
	t.Helper()
	w := &watch{done: make(chan error, 1)}
	acked := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		once := sync.OnceFunc(func() { close(acked) })
		w.done <- a2a.Watch(ctx, nil, base, "", "", func(ev a2a.WatchEvent) {
			w.mu.Lock()
			w.frames = append(w.frames, ev)
			w.mu.Unlock()
			once()
		})
		once()
	}()
	<-acked
	return w
}

// wait returns the frames once the capsule closed the stream.
func (w *watch) wait(t *testing.T) []a2a.WatchEvent {
	t.Helper()
	if err := <-w.done; err != nil {
		t.Fatalf("stream/watch: %v", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.frames) == 0 || w.frames[len(w.frames)-1].Event != "capsule-closed" {
		t.Fatalf("the watch did not run to capsule-closed: %d frames", len(w.frames))
	}
	return w.frames
}

// eventText is the text an A2A stream event carries, as a client reads
// it: artifact parts, status messages, a task's or message's parts.
func eventText(ev sdk.Event) string {
	var b strings.Builder
	parts := func(ps sdk.ContentParts) {
		for _, p := range ps {
			b.WriteString(p.Text())
		}
	}
	status := func(s sdk.TaskStatus) {
		if s.Message != nil {
			parts(s.Message.Parts)
		}
	}
	switch ev := ev.(type) {
	case *sdk.TaskArtifactUpdateEvent:
		parts(ev.Artifact.Parts)
	case *sdk.TaskStatusUpdateEvent:
		status(ev.Status)
	case *sdk.Task:
		status(ev.Status)
		for _, a := range ev.Artifacts {
			parts(a.Parts)
		}
	case *sdk.Message:
		parts(ev.Parts)
	}
	return b.String()
}

// watchBody is what a stream/watch frame carries of the task's text
// (internal/serve/a2a/watchhub.go's frames).
type watchBody struct {
	Text   string `json:"text"`
	Status struct {
		Message  string  `json:"message"`
		Response *string `json:"response"`
	} `json:"status"`
	Artifact struct {
		ToolName string `json:"tool_name"`
		Content  string `json:"content"`
	} `json:"artifact"`
}

func (w watchBody) text() string {
	s := w.Text + w.Status.Message + w.Artifact.ToolName + w.Artifact.Content
	if w.Status.Response != nil {
		s += *w.Status.Response
	}
	return s
}

// jsonStrings is every string in the JSON text raw.
func jsonStrings(t *testing.T, raw []byte) []string {
	t.Helper()
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}

// assertNoKey fails when the key is in mur's output or in any file under
// dir (session files, logs, trace, result, stores).
func assertNoKey(t *testing.T, dir, output string) {
	t.Helper()
	if strings.Contains(output, providerKey) {
		t.Errorf("the key is in mur's output:\n%s", output)
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), providerKey) {
			t.Errorf("the key is in %s", path)
		}
		return nil
	})
}

// TestRawKeyDriverOutputIsRedacted: a driver given the raw key
// (inference.driver.raw_api_key), whose env.allow names the A2A token
// too, prints its environment and memory to stdout (keyspy, run as the
// driver): mur's stdout has the key taken out, the token never reached
// the driver (the strip list), and nothing mur answers or writes
// carries either.
func TestRawKeyDriverOutputIsRedacted(t *testing.T) {
	pkgs := t.TempDir()
	dir := filepath.Join(pkgs, "spydriver")
	if err := copyFile(testguest.Path(testguest.KeyspyGo), filepath.Join(dir, "spydriver.wasm")); err != nil {
		t.Fatal(err)
	}
	manifest := "name: spydriver\nversion: \"0.1.0\"\nruntime: driver\nrequires_files: [spydriver.wasm]\n"
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runMur(pkgs, nil, "build", dir, "-o", pkgs); code != 0 {
		t.Fatalf("mur build: exit %d\n%s", code, stderr)
	}
	srv := mockprovider.New(t)
	srv.Route("/keyspy", mockprovider.Reply{Body: `{"probe":"ok"}`})
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: rawkey
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: spydriver
    raw_api_key: true
artifacts:
  - name: spydriver
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s]
  env:
    allow: [MURMUR_A2A_TOKEN]
`, srv.URL, srv.URL)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	envKey := []string{"MOCK_PROVIDER_KEY=" + providerKey}
	if out, stderr, code := runMur(p.dir, envKey, "install", filepath.Join(pkgs, "spydriver-0.1.0.mur.zip")); code != 0 {
		t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
	}
	const a2aToken = "a2a-token-0123456789-secret"
	// keyspy's answer is no driver response: the run fails after it ran.
	stdout, stderr, code := runMur(p.dir, append(envKey, "MURMUR_A2A_TOKEN="+a2aToken), "run", "--task", "hi")
	if code == 0 {
		t.Fatalf("mur run passed with a driver that answers no response\n%s\n%s", stdout, stderr)
	}
	if !strings.Contains(stdout, "env MURMUR_INFERENCE_API_KEY="+marker+"\n") {
		t.Errorf("the driver's environment dump is not on stdout with MURMUR_INFERENCE_API_KEY redacted:\n%.3000s", stdout)
	}
	// The A2A token is on the credential strip list: env.allow cannot
	// name it in, so the driver never sees it.
	if strings.Contains(stdout, "env MURMUR_A2A_TOKEN=") {
		t.Errorf("env.allow handed the driver MURMUR_A2A_TOKEN:\n%.3000s", stdout)
	}
	if strings.Contains(stdout+stderr, a2aToken) {
		t.Error("the A2A token is in mur's output")
	}
	assertNoKey(t, p.dir, stdout+stderr)
}
