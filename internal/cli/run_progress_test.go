package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/testing/mockprovider"
)

// progressYAML is an agent capsule whose scripted model says something
// with terminal escapes in it, asks the skill guide (ok) and a tool it
// was not given (error), then answers "the answer".
const progressYAML = `name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config:
      turns:
        - text: "Looking \e]0;owned\a\e[2J around."
          tool_calls:
            - {id: a, name: guide, input: {topic: "x  y"}}
            - {id: b, name: "no\e[31mpe", input: {}}
        - text: "the answer"
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: guide
    runtime: skill
    source: ./skills/guide
`

// progressProject is progressYAML installed, with its skill.
func progressProject(t *testing.T) string {
	t.Helper()
	dir := capsuleDir(t, progressYAML, nil)
	if err := os.MkdirAll(filepath.Join(dir, "skills", "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skills", "guide", "skill.md"), []byte("---\nname: guide\ndescription: how to\n---\nBe brief.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := murIn(t, dir, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s%s", code, stdout, stderr)
	}
	return dir
}

// progressLines is what --progress prints for progressYAML's task: the
// turns and tool calls in order, ok and error, with their times and
// tokens; the model's escapes shown, never sent.
var progressLines = regexp.MustCompile(`^task (tsk_\w+) \(task_md\)
turn 1 · scripted-model
  │ Looking \x{FFFD}\]0;owned\x{FFFD}\x{FFFD}\[2J around\.
  tool_call · \S+ · ~\d+ in, \d+ out tokens
  tool guide \{"topic":"x y"\} · ok · \S+
  tool no\x{FFFD}\[31mpe \{\} · error · \S+ · tool 'no\x{FFFD}\[31mpe' is not declared in manifest allowlist
turn 2 · scripted-model
  │ the answer
  end_turn · \S+ · ~\d+ in, \d+ out tokens
task (tsk_\w+) ok · 2 turns · ~\d+ in, \d+ out tokens · \S+
$`)

// --progress on a pipe shows the run as plain lines; without it a pipe
// gets exactly what it got before there was progress; --json stays one
// line on stdout.
func TestRunProgressOnAPipe(t *testing.T) {
	dir := progressProject(t)
	stdout, stderr, code := murIn(t, dir, "run", "--progress", "--task", "hi")
	m := progressLines.FindStringSubmatch(stderr)
	if code != exitOK || m == nil || m[1] != m[2] || !strings.HasSuffix(stdout, "status:  ok\nthe answer\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if strings.ContainsAny(stderr, "\x1b\r\a") {
		t.Errorf("control characters reached stderr: %q", stderr)
	}
	if _, task := oneTrace(t, dir); task != m[1] {
		t.Errorf("progress names task %s, the trace %s", m[1], task)
	}

	for _, tc := range []struct {
		name           string
		args           []string
		stdout, stderr string
	}{
		{"plain", nil, `^session: ses_\w+\nmurmur: url localhost:\d+\nstatus:  ok\nthe answer\n$`, `^$`},
		{"-q", []string{"-q"}, `^the answer\n$`, `^session: ses_\w+\nmurmur: url localhost:\d+\nstatus:  ok\n$`},
		{"--json", []string{"--json"}, `^\{"name":"agent","pid":\d+,"session_id":"ses_\w+","url":"localhost:\d+","version":"0.1.0","workdir":"[^"]+"\}\n$`, `^$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := murIn(t, dir, append([]string{"run", "--task", "hi"}, tc.args...)...)
			if code != exitOK || !regexp.MustCompile(tc.stdout).MatchString(stdout) || !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%q", code, stdout, stderr)
			}
		})
	}

	stdout, stderr, code = murIn(t, dir, "run", "--json", "--progress", "--task", "hi")
	var line map[string]any
	if err := json.Unmarshal([]byte(stdout), &line); code != exitOK || err != nil || !progressLines.MatchString(stderr) {
		t.Errorf("--json --progress: exit %d (%v)\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
}

// oneTrace is the trace.jsonl of the newest session under dir's default
// workdir, and the id of its first task.
func oneTrace(t *testing.T, dir string) (trace, task string) {
	t.Helper()
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*", "trace.jsonl"))
	if len(sessions) == 0 {
		t.Fatal("no trace")
	}
	b, err := os.ReadFile(sessions[0])
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`"event_type":"task_start"[^\n]*"task_id":"(tsk_\w+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no task_start in %s", b)
	}
	return string(b), string(m[1])
}

// A served capsule shows each task it runs, by id, as it comes.
func TestRunProgressOfAServedTask(t *testing.T) {
	dir := agentProject(t, agentYAML)
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, ".home"))
	t.Setenv(a2a.TimeoutEnv, "60")
	var stdout syncBuffer
	stderr := &waitFor{text: "send one with: mur send ", seen: make(chan struct{})}
	done := make(chan int, 1)
	go func() { done <- Run(context.Background(), []string{"run", "--progress"}, &stdout, stderr) }()
	select {
	case <-stderr.seen:
	case code := <-done:
		t.Fatalf("mur run ended (exit %d) without waiting for a task:\n%s", code, stderr.String())
	}
	url := regexp.MustCompile(`mur send (localhost:\d+) "TEXT"`).FindStringSubmatch(stderr.String())
	if url == nil {
		t.Fatalf("no URL to send to:\n%s", stderr.String())
	}
	if o := mur(t, "send", url[1], "hello"); o.code != exitOK {
		t.Errorf("mur send: exit %d\n%s%s", o.code, o.stdout, o.stderr)
	}
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	_, task := oneTrace(t, dir)
	want := regexp.MustCompile(`(?m)^task ` + task + ` \(a2a\)\nturn 1 · scripted-model\n  │ the answer\n  end_turn · .*\ntask ` + task + ` ok · 1 turn · `)
	if !want.MatchString(stderr.String()) {
		t.Errorf("the progress does not show task %s:\n%s", task, stderr.String())
	}
}

// A driver that streams (openai-compatible, against the loopback mock
// provider) has its text shown as it comes, line by line, its escapes
// shown and not sent, and not again once the call ends.
func TestRunProgressStreamsTheModelsText(t *testing.T) {
	srv := mockprovider.New(t, mockprovider.OpenAIStream([]string{"Hel", "lo \x1b[2J", "wor", "ld\nbye"}))
	dir := agentProject(t, fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s/v1
  model: mock-model
  driver:
    artifact: openai-compatible
artifacts:
  - name: openai-compatible
    version: "0.1.0"
    runtime: driver
capabilities:
  network:
    allow: [%s]
`, srv.URL, srv.URL))
	stdout, stderr, code := murIn(t, dir, "run", "--progress", "--task", "hi")
	want := regexp.MustCompile(`^task tsk_\w+ \(task_md\)
turn 1 · mock-model
  │ Hello \x{FFFD}\[2Jworld
  │ bye
  end_turn · \S+ · \S+ in, \d+ out tokens
task tsk_\w+ ok · 1 turn · `)
	if code != exitOK || !want.MatchString(stderr) || strings.Contains(stderr, "\x1b") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%q", code, stdout, stderr)
	}
}
