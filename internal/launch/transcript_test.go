package launch_test

// transcript.jsonl through the mur binary: what a run leaves, what a
// guest can do to it, and what a killed run keeps.

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/transcript"
)

// sessionTranscript reads the one session's transcript.jsonl under dir
// (workdir/ses_* or .murmur/ses_*), insisting every line is an entry.
func sessionTranscript(t *testing.T, dir string) []transcript.Entry {
	t.Helper()
	sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*"))
	more, _ := filepath.Glob(filepath.Join(dir, ".murmur", "ses_*"))
	sessions = append(sessions, more...)
	if len(sessions) != 1 {
		t.Fatalf("want one session under %s, found %v", dir, sessions)
	}
	f, err := transcript.ReadSession(sessions[0])
	if err != nil || len(f.Problems) != 0 {
		t.Fatalf("transcript.jsonl: %v %q", err, f.Problems)
	}
	return f.Entries
}

// kinds is each entry's kind, with the tool's name for tool steps.
func kinds(entries []transcript.Entry) string {
	var out []string
	for _, e := range entries {
		k := e.Kind
		if strings.HasPrefix(k, "tool_") {
			k += ":" + e.Name
		}
		out = append(out, k)
	}
	return strings.Join(out, " ")
}

// A WASM tool whose preopen is the session directory finds no
// transcript.jsonl there: it can neither read every other tool's output
// and the conversation in it, nor replace, remove or plant it. The
// transcript the run leaves is the run's, each step in order, with what
// the tool answered.
func TestWasmToolCannotReachTheTranscript(t *testing.T) {
	attack := " ; read transcript.jsonl ; ls . ; open transcript.jsonl w ; open transcript.jsonl create ; unlink transcript.jsonl ; " +
		"rename task.md transcript.jsonl ; symlink task.md transcript.jsonl ; "
	turns := `[{"tool_calls": [{"id": "a", "name": "fsattack", "input": {"c": "` + attack + `"}}]}, {"text": "done"}]`
	dir := t.TempDir()
	trustProject(t, dir, turns, []string{"fsattack"}, "", false)
	stdout, stderr, code := runMur(dir, nil, "run", "--task", "look around")
	if code != 0 || !strings.HasSuffix(stdout, "status:  ok\ndone\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	entries := sessionTranscript(t, dir)
	want := "session task_start model_start model_end tool_start:fsattack tool_end:fsattack model_start model_end task_end"
	if got := kinds(entries); got != want {
		t.Fatalf("transcript kinds\n got  %s\n want %s", got, want)
	}
	// fsattack prints each command's outcome on the capsule's stdout.
	const outcomes = "errno=ENOENT\nentries=MURMUR.md,logs,out,task.md\nerrno=ENOENT\nerrno=EACCES\nerrno=ENOENT\nerrno=EACCES\nerrno=EACCES\n"
	if !strings.Contains(stdout, outcomes) || strings.Contains(stdout, "content=") {
		t.Errorf("the WASM tool reached transcript.jsonl:\n%s\nwant the outcomes\n%s", stdout, outcomes)
	}
	if e := entries[5]; e.Text != "tool returned no data" || e.ToolKind != "wasm" || e.Status != "ok" {
		t.Errorf("tool_end %+v", e)
	}
	if e := entries[0]; e.Capsule != "trusting" || !strings.HasPrefix(e.SessionID, "ses_") || e.Cap != transcript.Cap {
		t.Errorf("session line %+v", e)
	}
	if e := entries[1]; e.Text != "look around" && e.Text != "" {
		t.Errorf("task_start text %q", e.Text)
	}
	if e := entries[2]; *e.FirstMessage != 0 || e.Messages != 1 || !strings.Contains(e.Text, "look around") {
		t.Errorf("first model_start: %+v", e)
	}
	if e := entries[6]; *e.FirstMessage != 1 || e.Messages != 3 || strings.Contains(e.Text, "look around") {
		t.Errorf("second model_start repeats the conversation: first %d of %d\n%s", *e.FirstMessage, e.Messages, e.Text)
	}
	if e := entries[8]; e.Status != "ok" || e.Text != "done" || e.Turns != 2 {
		t.Errorf("task_end %+v", e)
	}
}
