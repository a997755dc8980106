package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tracedYAML is an agent capsule whose scripted model runs the shell
// tools echo (with the argument %s, given as JSON) and ls, then answers.
const tracedYAML = `name: traced
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config:
      turns:
        - text: "I'll look."
          tool_calls:
            - {id: a, name: echo, input: {command: %s}}
            - {id: b, name: ls, input: {command: "-a"}}
        - text: "the answer"
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
capabilities:
  shell:
    allow: [echo, ls]
`

// tracedRun runs the traced capsule with echo's argument arg and returns
// the project's directory.
func tracedRun(t *testing.T, arg string) string {
	t.Helper()
	dir := agentProject(t, fmt.Sprintf(tracedYAML, jsonQuote(arg)))
	if stdout, stderr, code := murIn(t, dir, "run", "--task", "what is here?"); code != exitOK {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	return dir
}

// jsonQuote is s as a JSON string, which YAML reads too.
func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// mur trace transcript prints the newest session's steps in order, with
// what the model was sent and answered and what each tool returned; a
// session is also named by its id, a suffix or its directory.
func TestTraceTranscript(t *testing.T) {
	dir := tracedRun(t, "hello \x1b[31mred")
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*"))
	if len(sessions) != 1 {
		t.Fatalf("sessions %v", sessions)
	}
	id := filepath.Base(sessions[0])
	stdout, stderr, code := murIn(t, dir, "trace", "transcript")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	wants := []string{
		"Session " + id + " · capsule traced",
		"Task 1 (tsk_", "· ok · 2 turns ·",
		"── turn 1 ──\nmodel scripted-model · ok · tool_call · ",
		"  sent 1 message:\n    user:\n      what is here?\n  answered:\n    I'll look.\n    → calls echo {\"command\":\"hello \\u001b[31mred\"}\n    → calls ls {\"command\":\"-a\"}\n",
		"tool echo (shell) · ok · ", "  output:\n    $ hello \\x1b[31mred\n    Exit code: 0\n    Stdout:\n    hello \\x1b[31mred\n",
		"tool ls (shell) · ok · ",
		"── turn 2 ──\nmodel scripted-model · ok · end_turn · ",
		"  sent 3 new messages (of 4 in the request; the others are above):\n    assistant: I'll look. → calls echo, ls\n    tool (result of a): $ hello \\x1b[31mred (+",
		"answer:\n  the answer\n",
	}
	last := 0
	for _, w := range wants {
		i := strings.Index(stdout[last:], w)
		if i < 0 {
			t.Fatalf("the transcript lacks, after what came before, %q:\n%s", w, stdout)
		}
		last += i + len(w)
	}
	if strings.Contains(stdout, "\x1b") {
		t.Errorf("an escape sequence reached the terminal:\n%q", stdout)
	}
	for _, sel := range []string{id, id[len(id)-6:], "@1", sessions[0], filepath.Join(sessions[0], "transcript.jsonl")} {
		if out, errs, code := murIn(t, dir, "trace", "transcript", sel); code != exitOK || out != stdout {
			t.Errorf("mur trace transcript %s: exit %d, stderr %s, output differs", sel, code, errs)
		}
	}
}

// Each way mur trace transcript cannot show a session says why, with the
// exit status of its kind.
func TestTraceTranscriptRefusals(t *testing.T) {
	dir := tracedRun(t, "hi")
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*"))
	noTranscript := t.TempDir()
	if err := os.WriteFile(filepath.Join(noTranscript, "trace.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "ses_bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "transcript.jsonl"), []byte("{\"kind\":\"\\u001b[2J\",\"time\":\"2026-01-02T03:04:05Z\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"two sessions", []string{"a", "b"}, exitUsage, `unexpected argument "b"`},
		{"no such session", []string{"zzzz"}, exitFailure, `error[E-TRC-002]: no session found matching suffix 'zzzz'`},
		{"no workdir", []string{"--workdir", "nowhere"}, exitFailure, "error[E-TRC-002]: no sessions found in workdir at nowhere"},
		{"no transcript", []string{noTranscript}, exitFailure, "has no transcript.jsonl"},
		{"a bad line", []string{bad}, exitOK, `mur: warning: ` + bad + `/transcript.jsonl:1: unknown kind "\x1b[2J"; skipped`},
		{"a session", []string{sessions[0]}, exitOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := murIn(t, dir, append([]string{"trace", "transcript"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) || strings.Contains(stderr+stdout, "\x1b") {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%q\nwant stderr containing %q", code, tc.code, stdout, stderr, tc.stderr)
			}
		})
	}
}
