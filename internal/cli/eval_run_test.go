package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/eval"
)

// evalAgentYAML is an agent capsule whose scripted model reads the skill
// "notes" on its first turn and answers on its second, scored by all
// four scorers mur-go has; maxTurns is turn_limit's bound.
func evalAgentYAML(maxTurns int) string {
	return fmt.Sprintf(`name: graded
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "reading the notes", "tool_calls": [{"id": "n1", "name": "notes", "input": {}}]}, {"text": "the answer"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - {name: notes, runtime: skill, source: notes.md}
observability:
  eval:
    dataset_id: smoke
    scorers:
      - {type: exit_ok, name: success_check}
      - {type: max_turns, name: turn_limit, max: %d}
      - {type: max_tokens, name: budget}
      - {type: tool_sequence, name: reads_notes, expected: [notes]}
`, maxTurns)
}

// evalProject writes the capsule, its skill, task files and a dataset
// (case id → task file, "" for a case whose file is missing), and
// installs the driver (which writes murmur.lock).
func evalProject(t *testing.T, yaml string, cases ...[2]string) string {
	t.Helper()
	dir := capsuleDir(t, yaml, nil)
	files := map[string]string{"notes.md": "Answer in one line.\n"}
	var dataset strings.Builder
	for _, c := range cases {
		task := "tasks/" + c[0] + ".md"
		if c[1] != "" {
			files[task] = c[1]
		}
		fmt.Fprintf(&dataset, "{\"case_id\": %q, \"task_path\": %q}\n", c[0], task)
	}
	files["eval.jsonl"] = dataset.String()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if stdout, stderr, code := murIn(t, dir, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s%s", code, stdout, stderr)
	}
	return dir
}

// sessionRecords is the eval.jsonl of the session whose id ends the
// summary line of caseID, decoded.
func sessionRecords(t *testing.T, stdout, caseID string) (string, *eval.File) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(caseID) + ` +\S+ .*\((\S+/ses_[0-9a-f]{32})\)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no summary line with a session for %s:\n%s", caseID, stdout)
	}
	data, err := os.ReadFile(filepath.Join(m[1], eval.EvalFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := eval.ParseRecords(m[1], data)
	if err != nil {
		t.Fatal(err)
	}
	return m[1], f
}

// mur eval run runs each case of the dataset in a session of its own
// against a real agent capsule (the scripted driver, a skill), scores
// it by what the session did, writes the records to the session's
// eval.jsonl, and reports a case whose task file is missing as
// stage_failed without running it; a run where a case did not pass
// exits 1. mur eval show and diff then read those sessions by the ends
// of their ids.
func TestEvalRunScoresEachCase(t *testing.T) {
	dir := evalProject(t, evalAgentYAML(2), [2]string{"first", "Say hello.\n"}, [2]string{"second", "Say goodbye.\n"}, [2]string{"missing", ""})
	first, stderr, code := murIn(t, dir, "eval", "run")
	stdout := first
	if code != exitFailure {
		t.Errorf("exit %d, want 1 (a case did not pass)", code)
	}
	want := regexp.MustCompile(`^Running 3 case\(s\) …
  case: first
    result: pass  session: ses_[0-9a-f]{32}
  case: second
    result: pass  session: ses_[0-9a-f]{32}
  case: missing

── Summary ──────────────────────────────────────
pass: 2/3

  first                    pass  budget=1.00 reads_notes=1.00 success_check=1.00 turn_limit=1.00  \(\S+/workdir/ses_[0-9a-f]{32}\)
  second                   pass  budget=1.00 reads_notes=1.00 success_check=1.00 turn_limit=1.00  \(\S+/workdir/ses_[0-9a-f]{32}\)
  missing                  stage_failed    \(\S+/workdir\)
$`)
	if !want.MatchString(stdout) {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if !strings.Contains(stderr, "    stage failed: error[E-IO-001]: task_path 'tasks/missing.md' not found") {
		t.Errorf("stderr does not say why the missing case failed:\n%s", stderr)
	}
	if n, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*")); len(n) != 2 {
		t.Errorf("want two sessions, found %v", n)
	}

	for _, id := range []string{"first", "second"} {
		_, f := sessionRecords(t, stdout, id)
		if len(f.Events) != 4 || f.Run == nil || f.Run.CaseID == nil || *f.Run.CaseID != id ||
			f.Run.DatasetID == nil || *f.Run.DatasetID != "smoke" || f.Run.Overall != eval.Pass {
			t.Fatalf("%s: records %+v, run %+v", id, f.Events, f.Run)
		}
		reasons := map[string]string{}
		for _, e := range f.Events {
			if e.Result != eval.Pass || e.Turn != 2 || e.EventType != "session_end" || e.Score == nil || *e.Score != 1 {
				t.Errorf("%s: %+v", id, e)
			}
			reasons[e.Scorer] = *e.Reason
		}
		for scorer, want := range map[string]string{"success_check": "exit_status=ok", "turn_limit": "turns=2 max=2",
			"reads_notes": "expected=[notes] observed=[notes]"} {
			if reasons[scorer] != want {
				t.Errorf("%s: %s's reason %q, want %q", id, scorer, reasons[scorer], want)
			}
		}
		if !regexp.MustCompile(`^tokens=\d+ max=100000$`).MatchString(reasons["budget"]) {
			t.Errorf("%s: budget's reason %q", id, reasons["budget"])
		}
	}

	// The same capsule held to one turn and to a tool it never calls:
	// both scorers fail, and so does the case.
	strict := strings.Replace(evalAgentYAML(1), "expected: [notes]", "expected: [notes, search]", 1)
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(strict), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "one.jsonl"), []byte(`{"case_id": "first", "task_path": "tasks/first.md"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = murIn(t, dir, "eval", "run", ".", "--dataset", "one.jsonl")
	if code != exitFailure || !strings.Contains(stdout, "pass: 0/1") ||
		!strings.Contains(stdout, "  first                    fail  budget=1.00 reads_notes=0.00 success_check=1.00 turn_limit=0.00  (") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	failed, f := sessionRecords(t, stdout, "first")
	if f.Run.Overall != eval.Fail || len(f.Worst(5)) != 2 {
		t.Errorf("records %+v, run %+v", f.Events, f.Run)
	}

	// show finds the session by the end of its id, diff compares it
	// with a passing one.
	suffix := failed[len(failed)-8:]
	o, _, code := murIn(t, dir, "eval", "show", suffix)
	if code != exitOK || !strings.Contains(o, "  turn_limit               0/1 pass  (0.0%)") ||
		!strings.Contains(o, "  turn   2  session_end   reads_notes              fail  score=0.00") {
		t.Errorf("show %s: exit %d\n%s", suffix, code, o)
	}
	passed, _ := sessionRecords(t, first, "second")
	o, _, code = murIn(t, dir, "eval", "diff", passed[len(passed)-8:], suffix)
	for _, line := range []string{
		"budget                   100.0%         100.0%         =\n",
		"reads_notes              100.0%         0.0%           -100.0pp (A better)\n",
		"turn_limit               100.0%         0.0%           -100.0pp (A better)\n",
		"\noverall                  pass           fail          \n",
	} {
		if code != exitOK || !strings.Contains(o, line) {
			t.Errorf("diff: exit %d, want %q in\n%s", code, line, o)
		}
	}
	// With no session named, show reads the newest: the failed one.
	if o, _, code = murIn(t, dir, "eval", "show", "--json"); code != exitOK || !strings.Contains(o, `"overall": "fail"`) {
		t.Errorf("show --json of the newest session: exit %d\n%s", code, o)
	}
}
