package launch_test

// The first-party hooks compact and guard through `mur run`, installed
// offline from the built-in registry: compact in a session the scripted
// driver takes past its context window, guard with a policy denying a
// shell command and a tool.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// On an empty home, `mur list -g --json` shows the first-party hooks as
// built-in artifacts beside the drivers.
func TestBuiltinHooksListed(t *testing.T) {
	stdout, stderr, code := runMur(t.TempDir(), nil, "list", "-g", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rows []struct{ Name, Version, Runtime, Scope string }
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, name := range []string{"compact", "guard"} {
		if !slices.Contains(rows, struct{ Name, Version, Runtime, Scope string }{name, "0.1.0", "hook", "builtin"}) {
			t.Errorf("%s@0.1.0 is not listed as a built-in hook in %s", name, stdout)
		}
	}
}

// The first-party compact hook, installed offline from the built-in
// registry, in a session the scripted driver takes past its context
// window: the hook's run-inference goes through the same driver (a hook
// turn, its own system prompt), the history is replaced by the task and
// the summary with the compacted turn's call and result after it, the
// continuation the driver held is cleared, and the compaction is in the
// trace, the bootstrap log and out/compaction-summaries.jsonl.
func TestCompactHookRun(t *testing.T) {
	long := strings.Repeat("lorem ipsum dolor sit amet ", 100)
	script := fmt.Sprintf(`{"turns": [
	  {"text": %[1]q, "tool_calls": [{"id": "c1", "name": "echo", "input": {"text": "one"}}]},
	  {"text": %[1]q, "tool_calls": [{"id": "c2", "name": "echo", "input": {"text": "two"}}], "continuation_id": "cont-1"},
	  {"resumes_on": "SUMMARY-1", "expect_messages": 3, "expect_results": [{"tool_call_id": "c2", "is_error": false, "text": "}\"owt\":\"txet\"{"}], "text": "done"}],
	 "hook_turns": [{"expect_system": "compress the working history", "expect_messages": 1, "text": "SUMMARY-1: the agent echoed one and two."}]}`, long)
	p := hookProject(t, "  compaction:\n    dump_summaries: true\n", script, hookEntry("compact", ""), "context:\n  max_tokens: 1000\n")
	lock, err := os.ReadFile(filepath.Join(p.dir, "murmur.lock"))
	if err != nil || !strings.Contains(string(lock), "compact") {
		t.Fatalf("murmur.lock does not pin compact: %v\n%s", err, lock)
	}
	stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "echo one, then two")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s\ntrace:\n%v\n%s", code, stdout, stderr, p.sessionTrace(), p.sessionFile("logs/bootstrap.log"))
	}
	if got := strings.TrimSpace(p.sessionFile("out/result.txt")); got != "done" {
		t.Errorf("result.txt = %q", got)
	}
	lines := p.sessionTrace()
	comp := records(lines, trace.TypeCompaction)
	if len(comp) != 1 {
		t.Fatalf("%d compaction records: %v", len(comp), shape(t, lines))
	}
	if f := comp[0].Fields; f["turn"] != 1.0 || f["tokens_after"].(float64) >= f["tokens_before"].(float64) {
		t.Errorf("compaction = %v", f)
	}
	var hookInf int
	for _, l := range records(lines, trace.TypeInference) {
		if l.Fields["origin"] == "hook:compact" {
			hookInf++
		}
	}
	if hookInf != 1 {
		t.Errorf("%d inference records with origin hook:compact, want 1: %v", hookInf, lines)
	}
	dump := p.sessionFile("out/compaction-summaries.jsonl")
	if strings.Count(dump, "\n") != 1 || !strings.Contains(dump, "SUMMARY-1: the agent echoed one and two.") || !strings.Contains(dump, "echo one, then two") {
		t.Errorf("compaction-summaries.jsonl = %s", dump)
	}
	if log := p.sessionFile("logs/bootstrap.log"); !strings.Contains(log, "[compaction] hook compaction at turn 1") {
		t.Errorf("bootstrap.log has no compaction line:\n%s", log)
	}
}

// The first-party guard hook, installed offline, with a policy in its
// granted filesystem scope: a denied shell command and a denied tool are
// each a line in its hook log, and the task is sent back naming both;
// the model doing the same again spends the reopen budget, and the run
// fails with E-RUN-007. (murmur:hook@0.5.0 honours no arm at on-shell or
// on-tool-call, so guard cannot stop the call itself: see guests/go/guard.)
func TestGuardHookRun(t *testing.T) {
	turns := `{"turns": [{"tool_calls": [` + shellCall("s1", "mkdir -p build && rm -rf build") + `,
		{"id": "e1", "name": "echo", "input": {"text": "hi"}}]}, {"text": "done"}]}`
	p := hookProject(t, "  max_task_reopens: 1\n", turns,
		hookEntry("guard", "    capabilities:\n      filesystem: {scope: policy}\n"),
		"capabilities:\n  shell:\n    allow: [sh, mkdir, rm]\n")
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "policy"), 0o755); err != nil {
		t.Fatal(err)
	}
	policy := `{"deny_tools": ["ech*"], "deny_commands": ["rm -rf"]}`
	if err := os.WriteFile(filepath.Join(work, "policy", "guard.json"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runMur(p.dir, nil, "run", "--workdir", work, "--task", "tidy up")
	if code == 0 || !strings.Contains(stderr, "E-RUN-007") {
		t.Fatalf("mur run: exit %d, want E-RUN-007\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	dirs, _ := filepath.Glob(filepath.Join(work, ".murmur", "ses_*"))
	if len(dirs) != 1 {
		t.Fatalf("session dirs %v", dirs)
	}
	f, err := os.Open(filepath.Join(dirs[0], trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	reopened := records(lines, trace.TypeTaskReopened)
	want := "The capsule's policy forbids what this attempt did:\n" +
		"- turn 0 ran `mkdir -p build && rm -rf build` (denied by 'rm -rf')\n" +
		"- turn 0 called tool 'echo' (denied by 'ech*')\n" +
		"Do the task again without these tools or commands."
	if len(reopened) != 1 || reopened[0].Fields["hook_name"] != "guard" || reopened[0].Fields["reason"] != want {
		t.Fatalf("task_reopened records %v, want one from guard with reason\n%s", reopened, want)
	}
	if ends := records(lines, trace.TypeTaskEnd); len(ends) != 1 || ends[0].Fields["exit_status"] != "reopen_budget_exhausted" {
		t.Errorf("task_end records %v", ends)
	}
	log, _ := os.ReadFile(filepath.Join(dirs[0], "logs", "hook-guard.log"))
	if n := strings.Count(string(log), "guard: policy violation: "); n != 4 {
		t.Errorf("hook-guard.log has %d violations, want 2 per attempt:\n%s", n, log)
	}
	if task, _ := os.ReadFile(filepath.Join(work, "task.md")); !strings.Contains(string(task), "denied by 'rm -rf'") {
		t.Errorf("task.md = %q, want guard's feedback", task)
	}
}
