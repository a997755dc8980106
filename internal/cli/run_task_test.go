package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/serve/a2a"
)

// oneSession is the task.md and out/result.txt of the one session under
// the project's default workdir.
func oneSession(t *testing.T, dir string) (task, result string) {
	t.Helper()
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*"))
	if len(sessions) != 1 {
		t.Fatalf("want one session, found %v", sessions)
	}
	b, _ := os.ReadFile(filepath.Join(sessions[0], "task.md"))
	r, _ := os.ReadFile(filepath.Join(sessions[0], "out", "result.txt"))
	return string(b), string(r)
}

// --task is a file's contents when it names a readable regular file, and
// the text itself otherwise: a sentence that mentions a path is text.
func TestRunTaskIsAFileOrText(t *testing.T) {
	for _, tc := range []struct {
		name, file, task, want string
	}{
		{"a file", "notes/todo.md", "notes/todo.md", "# from the file\n"},
		{"a file without an extension", "TODO", "TODO", "# from the file\n"},
		{"a sentence naming a path", "", "fix src/main.go", "fix src/main.go"},
		{"a version number", "", "release v1.2", "release v1.2"},
		{"one word", "", "hello", "hello"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := agentProject(t, agentYAML)
			if tc.file != "" {
				p := filepath.Join(dir, tc.file)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("# from the file\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stdout, stderr, code := murIn(t, dir, "run", "--task", tc.task)
			if code != exitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if task, _ := oneSession(t, dir); task != tc.want {
				t.Errorf("task.md = %q, want %q", task, tc.want)
			}
		})
	}
}

// The final answer is the last thing on stdout, after Murmur's lines, so
// `mur run --task … > answer.md` keeps it; the result and trace paths are
// -v's; with -q stdout holds the answer alone and Murmur's lines go to
// stderr; --json prints its one line and nothing else, and does not go
// with -q.
func TestRunPrintsTheAnswerLast(t *testing.T) {
	dir := agentProject(t, agentYAML)
	stdout, stderr, code := murIn(t, dir, "run", "--task", "hi")
	if code != exitOK || !strings.HasSuffix(stdout, "status:  ok\nthe answer\n") || strings.Contains(stdout, "result:") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, _, code = murIn(t, dir, "run", "-v", "--task", "hi")
	if code != exitOK || !regexp.MustCompile(`\nresult:  \S+/out/result.txt\ntrace:   \S+/trace.jsonl\nstatus:  ok\nthe answer\n$`).MatchString(stdout) {
		t.Errorf("-v: exit %d\nstdout:\n%s", code, stdout)
	}
	stdout, stderr, code = murIn(t, dir, "run", "-q", "-v", "--task", "hi")
	if code != exitOK || stdout != "the answer\n" || !regexp.MustCompile(`(?m)^session: ses_\S+\n(.|\n)*^trace:   \S+/trace.jsonl\nstatus:  ok\n`).MatchString(stderr) {
		t.Errorf("-q: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = murIn(t, dir, "run", "-q", "--json", "--task", "hi")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "--quiet and --json") {
		t.Errorf("-q --json: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, _, code = murIn(t, dir, "run", "--json", "--task", "hi")
	var line map[string]any
	if err := json.Unmarshal([]byte(stdout), &line); code != exitOK || err != nil || strings.Count(stdout, "\n") != 1 {
		t.Errorf("--json: exit %d, stdout is not one JSON line (%v):\n%s", code, err, stdout)
	}
}

// A task that alone takes more than half of the model's context
// (context.max_tokens, else DefaultContextTokens) is run with a warning
// saying so.
func TestRunWarnsOfATaskThatFillsTheContext(t *testing.T) {
	dir := agentProject(t, agentYAML+"context:\n  max_tokens: 1000\n")
	_, stderr, code := murIn(t, dir, "run", "--task", strings.Repeat("word ", 600))
	if code != exitOK || !regexp.MustCompile(`warning\[W-RUN-001\]: the task alone is about 60\d tokens, more than half of the model's context \(1000 tokens, context.max_tokens\)`).MatchString(stderr) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, _ = murIn(t, dir, "run", "--task", strings.Repeat("word ", 400))
	if strings.Contains(stderr, "W-RUN-001") {
		t.Errorf("a task of 400 tokens of 1000 was warned about:\n%s", stderr)
	}

	// A task as long as the cap runs: one word of a megabyte (a single
	// piece for the tokenizer) is counted in bounded time, against the
	// context assumed where the manifest gives none.
	dir = agentProject(t, agentYAML)
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := murIn(t, dir, "run", "--task", "big.md")
	if code != exitOK || !strings.Contains(stderr, "warning[W-RUN-001]: the task alone is about 131072 tokens, more than half of the model's context (128000 tokens, assumed: context.max_tokens is not set)") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// With no task, mur run says at once on stderr what it waits for and how
// to give it a task, and the task sent as it says runs.
func TestRunWithoutTaskSaysHowToGiveOne(t *testing.T) {
	dir := agentProject(t, agentYAML)
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, ".home"))
	t.Setenv(a2a.TimeoutEnv, "60")
	var stdout syncBuffer
	stderr := &waitFor{text: "send one with: mur send ", seen: make(chan struct{})}
	done := make(chan int, 1)
	go func() { done <- Run(context.Background(), []string{"run"}, &stdout, stderr) }()
	select {
	case <-stderr.seen:
	case code := <-done:
		t.Fatalf("mur run ended (exit %d) without saying how to give it a task:\n%s", code, stderr.String())
	}
	m := regexp.MustCompile(`mur: no task given: waiting 1m0s for one over A2A at (localhost:\d+), then ending\n` +
		`  send one with: mur send (localhost:\d+) "TEXT"   \(or run with --task FILE\|TEXT; MURMUR_A2A_TIMEOUT_SECS sets the wait\)\n`).
		FindStringSubmatch(stderr.String())
	if m == nil || m[1] != m[2] {
		t.Fatalf("the notice does not say where to send a task:\n%s", stderr.String())
	}
	if o := mur(t, "send", m[1], "hello"); o.code != exitOK {
		t.Errorf("mur send: exit %d\n%s%s", o.code, o.stdout, o.stderr)
	}
	if code := <-done; code != exitOK || !strings.HasSuffix(stdout.String(), "status:  ok\nthe answer\n") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if task, _ := oneSession(t, dir); task != "hello" {
		t.Errorf("task.md = %q", task)
	}
}

// When no task comes, the run ends with an error saying so, and the model
// is never called with an empty task.
func TestRunWithoutTaskNeverCallsTheModel(t *testing.T) {
	dir := agentProject(t, agentYAML)
	t.Setenv(a2a.TimeoutEnv, "1")
	stdout, stderr, code := murIn(t, dir, "run")
	expectFailure(t, stdout, stderr, code, "failed", "waiting 1s for one over A2A at localhost:",
		"error[E-RUN-001]: agent task failed: no task to run: task.md and input.txt in the workdir are missing or empty, so the model was not called",
		"hint: give the capsule a task: mur run --task FILE|TEXT, or mur send URL TEXT while it waits for one")
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*", "trace.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("want one trace, found %v", sessions)
	}
	if b, _ := os.ReadFile(sessions[0]); strings.Contains(string(b), `"event_type":"inference"`) {
		t.Errorf("the model was called:\n%s", b)
	}
}

// waitFor is a writer that closes seen once text has been written to it.
type waitFor struct {
	syncBuffer
	text string
	seen chan struct{}
	once bool
}

func (w *waitFor) Write(p []byte) (int, error) {
	n, err := w.syncBuffer.Write(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.once && strings.Contains(w.b.String(), w.text) {
		w.once = true
		close(w.seen)
	}
	return n, err
}
