package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A session directory is where a guest writes, so every trace the trace
// commands read is a hostile guest's to shape. These tests plant what it
// could and run the command on it.

// A link planted as trace.jsonl (or as the session directory) is not
// followed: mur would otherwise print what the user can read and the
// guest cannot, here a secret dressed up as a trace.
func TestTraceFollowsNoPlantedLink(t *testing.T) {
	tmp := t.TempDir()
	secretDir := filepath.Join(tmp, "private")
	if err := os.MkdirAll(secretDir, 0o700); err != nil {
		t.Fatal(err)
	}
	const secret = "sk-users-own-secret"
	secretTrace := startRec(sesA, secret, "0.1.0", "m", 1) + endRec(sesA, 0, 0, 0, 0, 0, 1, "ok")
	if err := os.WriteFile(filepath.Join(secretDir, "trace.jsonl"), []byte(secretTrace), 0o600); err != nil {
		t.Fatal(err)
	}
	wd := filepath.Join(tmp, "workdir")
	// ses A: its trace.jsonl is a link out of the session directory.
	if err := os.MkdirAll(filepath.Join(wd, sesA), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(secretDir, "trace.jsonl"), filepath.Join(wd, sesA, "trace.jsonl")); err != nil {
		t.Fatal(err)
	}
	// ses B: the session directory itself is a link to the private one.
	if err := os.Symlink(secretDir, filepath.Join(wd, sesB)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"show", "--workdir", wd},
		{"show", "--workdir", wd, sesA},
		{"show", "--workdir", wd, "0001"},
		{"show", filepath.Join(wd, sesA, "trace.jsonl")},
		{"steps", "--workdir", wd, "@1"},
		{"show", "--workdir", wd, sesB},
		{"show", "--workdir", wd, "0002"},
		{"diff", "--workdir", wd, sesA, sesB},
		{"report", "--workdir", wd},
	} {
		o := mur(t, append([]string{"trace"}, args...)...)
		if o.code == exitOK || strings.Contains(o.stdout+o.stderr, secret) {
			t.Errorf("mur trace %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), o.code, o.stdout, o.stderr)
		}
	}
	o := mur(t, "trace", "show", "--workdir", wd)
	o.want(t, exitFailure, "", "error[E-IO-003]: refusing to read "+filepath.Join(wd, sesA, "trace.jsonl")+": it is a symbolic link")
}

// A FIFO planted as trace.jsonl would hold an open for reading until
// someone opened its other end: the command refuses it at once instead.
func TestTraceRefusesAFIFO(t *testing.T) {
	wd := filepath.Join(t.TempDir(), "workdir")
	if err := os.MkdirAll(filepath.Join(wd, sesA), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(wd, sesA, "trace.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan outcome, 1)
	go func() { done <- mur(t, "trace", "show", "--workdir", wd) }()
	select {
	case o := <-done:
		o.want(t, exitFailure, "", "error[E-IO-003]: refusing to read "+filepath.Join(wd, sesA, "trace.jsonl")+": it is not a regular file")
	case <-time.After(time.Minute):
		t.Fatal("mur trace show is still waiting on the FIFO after a minute")
	}
}

// Every string a trace carries reaches the terminal escaped: a guest
// cannot retitle the window, recolour, move the cursor, or reorder text
// with bidirectional overrides in the user's terminal.
func TestTraceEscapesControlCharacters(t *testing.T) {
	const (
		osc  = "\x1b]0;owned\x07"
		csi  = "\x1b[2J\x1b[31m"
		c1   = "\u009b1A"
		bidi = "\u202e"
	)
	evil := osc + csi + c1 + bidi
	id := "ses_aaaaaaaaaaaa4aaa8aaa00000000" + "0001"
	hostile := rec("event_type", "session_start", "session_id", id+evil, "timestamp", 1, "capsule_name", "cap"+evil,
		"capsule_version", evil, "model", evil, "max_turns", 5, "security_warnings", []map[string]string{{"code": "W" + evil, "message": evil}}) +
		rec("event_type", "task_start", "task_id", "t1"+evil, "context_id", evil, "source", evil) +
		inferRec(id, 1, 10, 10, "tool_call"+evil, "bash"+evil) +
		toolRec(id, 1, "bash"+evil, 10, "ok", "input", map[string]string{"command": "echo" + evil, "path": "p" + evil}, "state_effect", "read") +
		toolRec(id, 2, "bash"+evil, 10, "error"+evil, "input", map[string]string{"path": "p" + evil}, "state_effect", "read",
			"signal", "SIG"+evil, "exit_code", 9) +
		rec("event_type", "skill_call", "turn", 2, "skill_name", "sk"+evil, "duration_ms", 1, "status", "ok") +
		rec("event_type", "task_reopened", "task_id", "t1"+evil, "hook_name", "h"+evil, "reason", evil, "reopen_number", 1) +
		rec("event_type", "task_end", "task_id", "t1"+evil, "exit_status", "ok"+evil, "duration_ms", 1, "turns", 1, "input_tokens", 1,
			"output_tokens", 1, "tool_calls", 1, "shell_calls", 0) +
		rec("event_type", "task_start", "task_id", "t2", "context_id", "c", "source", "a2a") +
		rec("event_type", "task_end", "task_id", "t2", "exit_status", "ok", "duration_ms", 1, "turns", 1, "input_tokens", 1,
			"output_tokens", 1, "tool_calls", 1, "shell_calls", 0) +
		endRec(id, 2, 20, 20, 2, 0, 5, "ok"+evil)
	c := traceCase{sessions: sessions(sesA, hostile, sesB, fixtureA)}
	tmp := t.TempDir()
	wd := filepath.Join(tmp, "workdir")
	for dir, content := range c.sessions {
		if err := os.MkdirAll(filepath.Join(wd, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wd, dir, "trace.jsonl"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"show", "--workdir", wd, "@2"},
		{"steps", "--verbose", "--workdir", wd, "@2"},
		{"diff", "--workdir", wd},
		{"report", "--workdir", wd},
	} {
		o := mur(t, append([]string{"trace"}, args...)...)
		if o.code != exitOK {
			t.Fatalf("mur trace %s: exit %d\n%s%s", args[0], o.code, o.stdout, o.stderr)
		}
		if strings.ContainsAny(o.stdout+o.stderr, "\x1b\x07\u009b\u202e") {
			t.Errorf("mur trace %s printed a control character:\n%q", args[0], o.stdout)
		}
		if !strings.Contains(o.stdout, `\x1b]0;owned\a\x1b[2J\x1b[31m\u009b1A\u202e`) {
			t.Errorf("mur trace %s does not show the escaped text:\n%s", args[0], o.stdout)
		}
	}
}
