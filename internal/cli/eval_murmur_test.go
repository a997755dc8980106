package cli

// Murmur's crates/murmur-cli/tests/eval_cmd.rs (v0.2.0), test for test:
// each row carries the Murmur test's name and checks what it checks,
// through the mur command.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two scored sessions: A passes both scorers, B fails turn_limit.
const (
	evalFixtureA = `{"record_type":"event_score","ts":1000,"turn":2,"event_type":"session_end","scorer":"turn_limit","result":"pass","score":1.0,"reason":"turns=2 max=5"}
{"record_type":"event_score","ts":1001,"turn":2,"event_type":"session_end","scorer":"success_check","result":"pass","score":1.0,"reason":"exit_status=ok"}
{"record_type":"dataset_run","ts":1002,"dataset_id":"test-ds","case_id":"case_001","overall":"pass","scores":{"turn_limit":1.0,"success_check":1.0}}
`
	evalFixtureB = `{"record_type":"event_score","ts":2000,"turn":8,"event_type":"session_end","scorer":"turn_limit","result":"fail","score":0.0,"reason":"turns=8 max=5"}
{"record_type":"event_score","ts":2001,"turn":8,"event_type":"session_end","scorer":"success_check","result":"pass","score":1.0,"reason":"exit_status=ok"}
{"record_type":"dataset_run","ts":2002,"dataset_id":"test-ds","case_id":"case_002","overall":"fail","scores":{"turn_limit":0.0,"success_check":1.0}}
`
	evalFixtureNoScorers = `{"record_type":"dataset_run","ts":3000,"dataset_id":null,"case_id":null,"overall":"no_scores","scores":{}}
`
	evalFixtureSingleScorer = `{"record_type":"event_score","ts":4000,"turn":1,"event_type":"session_end","scorer":"exit_ok","result":"pass","score":1.0,"reason":"exit_status=ok"}
{"record_type":"dataset_run","ts":4001,"dataset_id":null,"case_id":null,"overall":"pass","scores":{"exit_ok":1.0}}
`
)

// evalFixture writes content to name in a new directory.
func evalFixture(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// showJSON is `mur eval show --json path`, decoded.
func showJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	o := mur(t, "eval", "show", "--json", path)
	o.want(t, exitOK, "", "")
	var v map[string]any
	if err := json.Unmarshal([]byte(o.stdout), &v); err != nil {
		t.Fatalf("--json output is not JSON (%v):\n%s", err, o.stdout)
	}
	return v
}

// containsAll fails unless s holds every want.
func containsAll(t *testing.T, what, s string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

func TestEvalShowMurmur(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"show_human_readable_pass_session", func(t *testing.T) {
			o := mur(t, "eval", "show", evalFixture(t, "eval.jsonl", evalFixtureA))
			o.want(t, exitOK, "", "")
			containsAll(t, "stdout", o.stdout, "turn_limit", "success_check", "pass")
		}},
		{"show_human_readable_fail_session", func(t *testing.T) {
			o := mur(t, "eval", "show", evalFixture(t, "eval.jsonl", evalFixtureB))
			o.want(t, exitOK, "", "")
			containsAll(t, "stdout", o.stdout, "turn_limit", "fail")
		}},
		{"show_json_output_is_valid_json", func(t *testing.T) {
			v := showJSON(t, evalFixture(t, "eval.jsonl", evalFixtureA))
			if _, ok := v["scorers"].(map[string]any); v["overall"] != "pass" || !ok {
				t.Errorf("overall %v, scorers %v", v["overall"], v["scorers"])
			}
		}},
		{"show_json_fail_session_overall_fail", func(t *testing.T) {
			if v := showJSON(t, evalFixture(t, "eval.jsonl", evalFixtureB)); v["overall"] != "fail" {
				t.Errorf("overall %v, want fail", v["overall"])
			}
		}},
		{"show_no_scorer_events_handles_gracefully", func(t *testing.T) {
			mur(t, "eval", "show", evalFixture(t, "eval.jsonl", evalFixtureNoScorers)).want(t, exitOK, "", "")
		}},
		{"show_single_scorer_shows_pass_rate", func(t *testing.T) {
			o := mur(t, "eval", "show", evalFixture(t, "eval.jsonl", evalFixtureSingleScorer))
			o.want(t, exitOK, "exit_ok", "")
			if !strings.Contains(o.stdout, "100.0%") && !strings.Contains(o.stdout, "pass") {
				t.Errorf("no pass rate:\n%s", o.stdout)
			}
		}},
		{"show_missing_file_exits_nonzero", func(t *testing.T) {
			o := mur(t, "eval", "show", filepath.Join(t.TempDir(), "does-not-exist-eval-xyz.jsonl"))
			if o.code == exitOK || (!strings.Contains(o.stderr, "E-IO-001") && !strings.Contains(o.stderr, "not found")) {
				t.Errorf("exit %d, stderr:\n%s", o.code, o.stderr)
			}
		}},
		{"show_malformed_json_reports_line_number", func(t *testing.T) {
			p := evalFixture(t, "eval.jsonl", `{"record_type":"event_score","ts":1000,"turn":1,"event_type":"session_end","scorer":"s1","result":"pass","score":1.0}
this is not valid json
`)
			o := mur(t, "eval", "show", p)
			if o.code == exitOK || (!strings.Contains(o.stderr, "E-EVAL-001") && !strings.Contains(o.stderr, ":2:")) {
				t.Errorf("exit %d, stderr:\n%s", o.code, o.stderr)
			}
		}},
		{"show_empty_file_exits_success_with_no_scores_message", func(t *testing.T) {
			mur(t, "eval", "show", evalFixture(t, "eval.jsonl", "")).want(t, exitOK, "", "")
		}},
		{"show_unknown_record_type_fails", func(t *testing.T) {
			o := mur(t, "eval", "show", evalFixture(t, "eval.jsonl", `{"record_type":"unknown_type","ts":1000}`+"\n"))
			if o.code == exitOK || !strings.Contains(o.stderr, "E-EVAL-001") {
				t.Errorf("exit %d, stderr:\n%s", o.code, o.stderr)
			}
		}},
		{"show_json_contains_scorer_names", func(t *testing.T) {
			scorers, _ := showJSON(t, evalFixture(t, "eval.jsonl", evalFixtureA))["scorers"].(map[string]any)
			for _, name := range []string{"turn_limit", "success_check"} {
				if _, ok := scorers[name]; !ok {
					t.Errorf("scorers lack %s: %v", name, scorers)
				}
			}
		}},
		{"show_json_pass_rate_fields_present", func(t *testing.T) {
			scorers, _ := showJSON(t, evalFixture(t, "eval.jsonl", evalFixtureA))["scorers"].(map[string]any)
			tl, _ := scorers["turn_limit"].(map[string]any)
			for _, f := range []string{"pass", "fail", "total", "pass_rate"} {
				if _, ok := tl[f].(float64); !ok {
					t.Errorf("turn_limit.%s is not a number: %v", f, tl)
				}
			}
		}},
	} {
		t.Run(tc.name, tc.check)
	}
}

func TestEvalDiffMurmur(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"diff_shows_per_scorer_comparison", func(t *testing.T) {
			o := mur(t, "eval", "diff", evalFixture(t, "eval_a.jsonl", evalFixtureA), evalFixture(t, "eval_b.jsonl", evalFixtureB))
			o.want(t, exitOK, "", "")
			containsAll(t, "stdout", o.stdout, "turn_limit", "success_check")
		}},
		{"diff_delta_shows_which_run_scored_better", func(t *testing.T) {
			o := mur(t, "eval", "diff", evalFixture(t, "eval_a.jsonl", evalFixtureA), evalFixture(t, "eval_b.jsonl", evalFixtureB))
			o.want(t, exitOK, "", "")
			if !strings.Contains(o.stdout, "A better") && !strings.Contains(o.stdout, "pp") {
				t.Errorf("the diff does not say which run scored better:\n%s", o.stdout)
			}
		}},
		{"diff_missing_file_exits_nonzero", func(t *testing.T) {
			o := mur(t, "eval", "diff", evalFixture(t, "eval_a.jsonl", evalFixtureA), filepath.Join(t.TempDir(), "missing-eval.jsonl"))
			if o.code == exitOK {
				t.Errorf("exit 0, stdout:\n%s", o.stdout)
			}
		}},
		{"diff_same_file_shows_equal_delta", func(t *testing.T) {
			o := mur(t, "eval", "diff", evalFixture(t, "eval_a.jsonl", evalFixtureA), evalFixture(t, "eval_b2.jsonl", evalFixtureA))
			o.want(t, exitOK, "=", "")
		}},
	} {
		t.Run(tc.name, tc.check)
	}
}

// minimalCapsule is a directory holding Murmur's minimal manifest.
func minimalCapsule(t *testing.T) string {
	t.Helper()
	return capsuleDir(t, "name: test-eval\nversion: 0.1.0\n", nil)
}

func TestEvalRunMurmur(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"run_no_args_default_dataset_absent_gives_clear_error", func(t *testing.T) {
			_, stderr, code := murIn(t, minimalCapsule(t), "eval", "run")
			if code == exitOK || !strings.Contains(stderr, "no dataset found") || !strings.Contains(stderr, "./eval.jsonl") {
				t.Errorf("exit %d, stderr:\n%s", code, stderr)
			}
		}},
		{"run_explicit_capsule_only_default_dataset_absent_gives_clear_error", func(t *testing.T) {
			// Run from another directory, without an eval.jsonl of its own.
			_, stderr, code := murIn(t, t.TempDir(), "eval", "run", minimalCapsule(t))
			if code == exitOK || !strings.Contains(stderr, "no dataset found") || !strings.Contains(stderr, "./eval.jsonl") {
				t.Errorf("exit %d, stderr:\n%s", code, stderr)
			}
		}},
		{"run_explicit_dataset_only_capsule_defaults_to_cwd", func(t *testing.T) {
			dataset := filepath.Join(t.TempDir(), "no-such-eval-explicit-only.jsonl")
			_, stderr, code := murIn(t, minimalCapsule(t), "eval", "run", "--dataset", dataset)
			if code == exitOK || !strings.Contains(stderr, "dataset not found at") || !strings.Contains(stderr, dataset) {
				t.Errorf("exit %d, stderr:\n%s", code, stderr)
			}
		}},
		{"run_both_explicit_uses_given_paths", func(t *testing.T) {
			dataset := filepath.Join(t.TempDir(), "no-such-eval-both-explicit.jsonl")
			_, stderr, code := murIn(t, t.TempDir(), "eval", "run", minimalCapsule(t), "--dataset", dataset)
			if code == exitOK || !strings.Contains(stderr, "dataset not found at") || !strings.Contains(stderr, dataset) {
				t.Errorf("exit %d, stderr:\n%s", code, stderr)
			}
		}},
	} {
		t.Run(tc.name, tc.check)
	}
}
