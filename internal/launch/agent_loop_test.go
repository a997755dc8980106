package launch_test

// The agent session loop through the mur binary: trace.jsonl as a capsule
// author reads it, continuation, system prompt sources, and what a signal
// or a kill leaves behind.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// loopProject writes an agent capsule whose scripted driver replays turns,
// with extra lines under inference: (indented two spaces), and installs
// the driver, echo and spin.
func loopProject(t *testing.T, inference, turns string) *project {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
%s  driver:
    artifact: scripted
    config: {"turns": %s}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
  - name: spin
    version: "0.1.0"
    runtime: tool
`, inference, turns)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{filepath.Join(pkgs, "scripted-0.1.0.mur.zip"), filepath.Join(pkgs, "echo-0.1.0.mur.zip"), filepath.Join(env.pkgs, "spin-0.1.0.mur.zip")} {
		p.mur(0, "install", pkg)
	}
	return p
}

// sessionTrace parses the one session's trace.jsonl; a line cut short is
// an error.
func (p *project) sessionTrace() []trace.Line {
	p.t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(p.dir, "workdir", "ses_*"))
	if len(dirs) != 1 {
		p.t.Fatalf("want one session dir, found %v", dirs)
	}
	f, err := os.Open(filepath.Join(dirs[0], trace.FileName))
	if err != nil {
		p.t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.Read(f)
	if err != nil {
		p.t.Fatalf("trace.jsonl: %v", err)
	}
	return lines
}

// shape is the trace as event types, with the decision of inference
// lines and the exit status of session_end and task_end; it also checks
// the counts invariant of every session_end.
func shape(t *testing.T, lines []trace.Line) []string {
	t.Helper()
	var out []string
	var turns, calls, shells float64
	for _, l := range lines {
		s := l.Type
		switch l.Type {
		case trace.TypeInference:
			turns++
			s += ":" + l.Fields["decision"].(string)
		case trace.TypeToolCall:
			calls++
			s += ":" + l.Fields["tool_name"].(string) + ":" + l.Fields["status"].(string)
		case trace.TypeShell:
			shells++
		case trace.TypeSessionEnd, trace.TypeTaskEnd:
			s += ":" + l.Fields["exit_status"].(string)
			if l.Type == trace.TypeSessionEnd && (l.Fields["total_turns"] != turns || l.Fields["total_tool_calls"] != calls || l.Fields["total_shell_calls"] != shells) {
				t.Errorf("counts invariant broken: %v after %v inference, %v tool_call, %v shell lines", l.Fields, turns, calls, shells)
			}
		}
		out = append(out, s)
	}
	return out
}

const echoHello = `{"tool_calls": [{"id": "c1", "name": "echo", "input": {"text": "hello"}}]}`

// Every way an attempt ends, as mur run reports it and as trace.jsonl
// records it: a failed attempt exits non-zero with its real status while
// the trace keeps Murmur's fields (task_end ok for the failures Murmur
// records and returns from).
func TestAgentTraceOfEachOutcome(t *testing.T) {
	cases := []struct {
		name, inference, turns string
		code                   int
		shape                  []string
	}{
		{"multi-turn tool use", "", `[` + echoHello + `, {"tool_calls": [{"id": "c2", "name": "nope"}]}, {"text": "done"}]`, 0,
			[]string{"task_start", "session_start", "inference:tool_call", "tool_call:echo:ok", "inference:tool_call", "tool_call:nope:error",
				"inference:end_turn", "session_end:ok", "task_end:ok"}},
		{"max_turns", "  max_turns: 1\n", `[` + echoHello + `]`, 1,
			[]string{"task_start", "session_start", "inference:tool_call", "tool_call:echo:ok", "session_end:max_turns_reached", "task_end:ok"}},
		{"driver error", "", `[{"error": "HTTP 500: down"}]`, 1,
			[]string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{"unsupported stop reason", "", `[{"stop_reason": "pause_turn"}]`, 1,
			[]string{"task_start", "session_start", "inference:text", "session_end:failed", "task_end:ok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := loopProject(t, c.inference, c.turns)
			stdout, stderr := p.mur(c.code, "run", "--task", "reverse hello")
			status := "ok"
			if c.code != 0 {
				status = "failed"
			}
			if !endsWithStatus(stdout, status) {
				t.Errorf("stdout does not end with status %s:\n%s\nstderr:\n%s", status, stdout, stderr)
			}
			if got := shape(t, p.sessionTrace()); !slices.Equal(got, c.shape) {
				t.Errorf("trace\n got  %v\n want %v", got, c.shape)
			}
		})
	}
}

// A driver that returns a continuation_id gets only the tail of the
// conversation next turn, with the id: the script asserts both.
func TestAgentContinuation(t *testing.T) {
	p := loopProject(t, "", `[{"tool_calls": [{"id": "c1", "name": "echo", "input": {"text": "hi"}}], "continuation_id": "k1"},
		{"expect_continuation_id": "k1", "expect_messages": 2, "expect_results": [{"tool_call_id": "c1", "is_error": false, "text": "}\"ih\":\"txet\"{"}], "text": "done"}]`)
	stdout, stderr := p.mur(0, "run", "--task", "go")
	if !strings.HasSuffix(stdout, "status:  ok\ndone\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// The system prompt from each source (session.md §3.3) reaches the driver
// and session_start's source and digest.
func TestAgentSystemPromptSources(t *testing.T) {
	digest := func(s string) any {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	cases := []struct {
		name, inference string
		args            []string
		expect          string
		code            int
		source          string
		sha             any
		// skill adds the local skill persona; bound is then whether
		// MURMUR.md lists it as bound as the system prompt.
		skill, bound bool
	}{
		{"manifest inline", "  system_prompt: Answer briefly.\n", nil, "\\n\\nAnswer briefly.", 0, "manifest", digest("Answer briefly."), false, false},
		{"manifest file", "  system_prompt_file: prompt.md\n", nil, "\\n\\nFrom the file.", 0, "manifest", digest("From the file."), false, false},
		{"cli wins, trimmed", "  system_prompt: Answer briefly.\n", []string{"--system-prompt", "  Be terse. "}, "\\n\\nBe terse.", 0, "cli", digest("Be terse."), false, false},
		// A blank flag is the operator's choice all the same (Murmur:
		// source cli): the manifest's prompt is cleared (its missing
		// file is never read) and none is sent.
		{"blank cli clears the prompt", "  system_prompt_file: gone.md\n", []string{"--system-prompt", "   "}, "(in your workdir)", 0, "cli", nil, false, false},
		{"empty cli clears the prompt", "  system_prompt: Answer briefly.\n", []string{"--system-prompt", ""}, "(in your workdir)", 0, "cli", nil, false, false},
		{"missing file is E-RUN-009", "  system_prompt_file: gone.md\n", nil, "", 1, "", nil, false, false},
		{"skill artifact", "  system_prompt_artifact: persona\n", nil, "\\n\\nYou are terse.", 0, "manifest", digest("You are terse."), true, true},
		{"cli clears the skill binding", "  system_prompt_artifact: persona\n", []string{"--system-prompt", "Be kind."}, "\\n\\nBe kind.", 0, "cli", digest("Be kind."), true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := loopProject(t, c.inference, `[{"expect_system": "`+c.expect+`", "text": "ok"}]`)
			if err := os.WriteFile(filepath.Join(p.dir, "prompt.md"), []byte("\nFrom the file.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.skill {
				appendFile(t, filepath.Join(p.dir, "murmur.yaml"), "  - {name: persona, runtime: skill, source: persona.md}\n")
				appendFile(t, filepath.Join(p.dir, "persona.md"), "You are terse.\n")
			}
			_, stderr := p.mur(c.code, append([]string{"run", "--task", "go"}, c.args...)...)
			if c.code != 0 {
				if !strings.Contains(stderr, "E-RUN-009") {
					t.Errorf("stderr lacks E-RUN-009:\n%s", stderr)
				}
				return
			}
			if c.skill {
				dirs, _ := filepath.Glob(filepath.Join(p.dir, "workdir", "ses_*", "MURMUR.md"))
				if len(dirs) != 1 {
					t.Fatalf("MURMUR.md: %v", dirs)
				}
				md, _ := os.ReadFile(dirs[0])
				if got := strings.Contains(string(md), "**persona** — bound as system prompt"); got != c.bound {
					t.Errorf("MURMUR.md lists persona as bound: %v, want %v\n%s", got, c.bound, md)
				}
			}
			starts := p.sessionTrace()[1]
			if starts.Type != trace.TypeSessionStart || starts.Fields["system_prompt_source"] != c.source || starts.Fields["system_prompt_sha256"] != c.sha {
				t.Errorf("session_start %v: want source %s, sha256 %v", starts.Fields, c.source, c.sha)
			}
		})
	}
}

// SIGINT while a tool call runs ends the task cancelled (exit 130, no
// error line), its trace recording the interrupted call and the attempt,
// task and run cancelled; kill -9 at the same point leaves every finished
// record whole.
func TestAgentInterruptedMidTurn(t *testing.T) {
	turns := `[{"tool_calls": [{"id": "s", "name": "spin"}]}]`
	cases := []struct {
		name  string
		sig   syscall.Signal
		code  int
		shape []string
	}{
		{"SIGINT", syscall.SIGINT, 130, []string{"task_start", "session_start", "inference:tool_call", "tool_call:spin:error",
			"session_end:cancelled", "task_end:cancelled"}},
		{"kill -9", syscall.SIGKILL, -1, []string{"task_start", "session_start", "inference:tool_call"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := loopProject(t, "", turns)
			stdout, stderr, code, _ := runSignalled(t, p.dir, c.sig, "--log-level", "debug", "run", "--task", "spin")
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if c.sig == syscall.SIGINT && (!strings.HasSuffix(stdout, "status:  cancelled\n") || errorLine(stderr) != "") {
				t.Errorf("stdout does not end cancelled, or stderr reports an error:\n%s\nstderr:\n%s", stdout, stderr)
			}
			lines := p.sessionTrace()
			if got := shape(t, lines); !slices.Equal(got, c.shape) {
				t.Errorf("trace\n got  %v\n want %v", got, c.shape)
			}
			if c.sig == syscall.SIGINT && (len(lines) < 4 || lines[3].Fields["cancelled"] != true) {
				t.Errorf("the interrupted call is not marked cancelled: %v", lines)
			}
		})
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
