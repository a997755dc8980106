package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// show prints Murmur's layout, section for section.
func TestEvalShowLayout(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"a failed session", evalFixtureB, `
── Scorers ──────────────────────────────────────
  success_check            1/1 pass  (100.0%)
  turn_limit               0/1 pass  (0.0%)

── Overall ──────────────────────────────────────
  result:  fail
  case:    case_002
  dataset: test-ds

── Score summary ────────────────────────────────
  success_check            1.0000
  turn_limit               0.0000

── Worst events ─────────────────────────────────
  turn   8  session_end   turn_limit               fail  score=0.00
`},
		{"a passed session", evalFixtureSingleScorer, `
── Scorers ──────────────────────────────────────
  exit_ok                  1/1 pass  (100.0%)

── Overall ──────────────────────────────────────
  result:  pass

── Score summary ────────────────────────────────
  exit_ok                  1.0000

── Worst events ─────────────────────────────────
  (no failing events)
`},
		{"a summary without scores", evalFixtureNoScorers, `
── Scorers ──────────────────────────────────────

── Overall ──────────────────────────────────────
  result:  no_scores
`},
		{"an empty file", "\n\n", "  (no scored events)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := evalFixture(t, "eval.jsonl", tc.content)
			o := mur(t, "eval", "show", p)
			want := "── Eval: " + p + " ─────────────────────────────────────\n" + tc.want
			if o.code != exitOK || o.stdout != want {
				t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", o.code, o.stdout, want, o.stderr)
			}
		})
	}
}

// Text from an eval file reaches the terminal escaped: a scorer named
// with an escape sequence cannot clear the screen or retitle it.
func TestEvalShowEscapesControlCharacters(t *testing.T) {
	p := evalFixture(t, "eval.jsonl", `{"record_type":"event_score","ts":1,"turn":1,"event_type":"\u001b]0;owned\u0007","scorer":"\u001b[2Jx","result":"fail"}
{"record_type":"dataset_run","ts":1,"case_id":"\u009b31m","overall":"fail\r","scores":{"\u001b[2Jx":0}}
`)
	for _, args := range [][]string{{"eval", "show", p}, {"eval", "diff", p, p}} {
		o := mur(t, args...)
		if o.code != exitOK || strings.ContainsAny(o.stdout, "\x1b\x07\r\u009b") || !strings.Contains(o.stdout, `\x1b[2Jx`) {
			t.Errorf("%v: exit %d, stdout:\n%q", args, o.code, o.stdout)
		}
	}
}

// A command line eval cannot take exits 2 and says how to get help.
func TestEvalBadCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "show", "a", "b"}, `unexpected argument "b"`},
		{[]string{"eval", "diff", "a"}, "missing B"},
		{[]string{"eval", "diff", "a", "b", "c"}, `unexpected argument "c"`},
		{[]string{"eval", "run", "a", "b"}, `unexpected argument "b"`},
		{[]string{"eval", "run", "--dataset", ""}, "--dataset needs a file"},
		{[]string{"eval", "show", "--verbose"}, "unknown flag: --verbose"},
		{[]string{"eval", "score"}, `unknown command "score" for "mur eval"`},
	} {
		o := mur(t, tc.args...)
		if o.code != exitUsage || o.stdout != "" || !strings.Contains(o.stderr, tc.want) || !strings.Contains(o.stderr, "--help' for usage.") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", tc.args, o.code, o.stdout, o.stderr)
		}
	}
}

// What eval run cannot run is refused before any case runs: exit 1, the
// reason on stderr, nothing on stdout and nothing written.
func TestEvalRunRefusals(t *testing.T) {
	const agent = `name: a
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver: {artifact: scripted}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
`
	const scorers = "observability: {eval: {scorers: [{type: exit_ok}]}}\n"
	const dataset = `{"case_id": "c", "task_path": "t.md"}` + "\n"
	for _, tc := range []struct {
		name, yaml, dataset, lock, want string
	}{
		{"no manifest", "", dataset, "", "error[E-IO-001]: murmur.yaml not found"},
		{"a dataset line that does not decode", agent + scorers, dataset + "{\"case_id\": \"d\"\n", "",
			"/eval.jsonl:2: error[E-EVAL-001]: the JSON object ends early"},
		{"an expected answer", agent + scorers, `{"case_id": "c", "task_path": "t.md", "expected": "hi"}`, "",
			"/eval.jsonl:1: error[E-RUN-001]: not implemented: a case's expected answer"},
		{"a field mur-go does not know", agent + scorers, `{"case_id": "c", "task": "t.md"}`, "",
			`/eval.jsonl:1: error[E-EVAL-001]: unknown field "task"`},
		{"an empty dataset", agent + scorers, "\n", "", "error[E-IO-003]: dataset is empty: "},
		{"a script capsule", "name: s\nversion: \"0.1.0\"\n" + scorers, dataset, "", "error[E-RUN-001]: not implemented: mur eval run of a script capsule"},
		{"no scorer", agent, dataset, "", "error[E-MAN-001]: observability.eval.scorers declares no scorer"},
		{"llm_judge", agent + "observability: {eval: {scorers: [{type: llm_judge}]}}\n", dataset, "",
			"error[E-RUN-001]: not implemented: scorer type llm_judge"},
		{"a session that never ends", agent + scorers + "lifecycle: {task_acceptance: queue, after_task: sleep}\n", dataset, "",
			"error[E-MAN-003]: lifecycle task_acceptance: queue with after_task: sleep never ends a session"},
		{"a murmur.lock that does not parse", agent + scorers, dataset, "lock_version: [", "error[E-RUN-003]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{"murmur.yaml": tc.yaml, "eval.jsonl": tc.dataset, "murmur.lock": tc.lock, "t.md": "hi\n"} {
				if text == "" {
					continue
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := listing(t, dir)
			stdout, stderr, code := murIn(t, dir, "eval", "run")
			if code != exitFailure || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant stderr containing %q", code, stdout, stderr, tc.want)
			}
			after := listing(t, dir)
			after = slices.DeleteFunc(after, func(s string) bool { return strings.HasPrefix(s, ".home") })
			if !slices.Equal(after, before) {
				t.Errorf("a refused run changed the project:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// mur eval alone is its help, with examples; mur's help names it.
func TestEvalHelp(t *testing.T) {
	mur(t, "eval").want(t, exitOK, "Available Commands:\n  diff", "")
	o := mur(t, "eval", "--help")
	containsAll(t, "mur eval --help", o.stdout, "  run ", "  show ", "exit_ok", "tool_sequence", "llm_judge is not implemented", "mur eval run ./my-agent --dataset cases.jsonl")
	mur(t, "--help").want(t, exitOK, `"mur eval run" runs each case of a dataset`, "")
}
