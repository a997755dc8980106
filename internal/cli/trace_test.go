package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// traceCase is one `mur trace` command over fixture sessions: a test of
// Murmur's crates/murmur-cli/tests/trace_cmd.rs, by its name.
type traceCase struct {
	name     string
	sessions map[string]string // session directory in {wd} → its trace.jsonl
	files    map[string]string // file in {tmp} → its contents
	args     []string          // "{wd}" and "{tmp}" stand for the directories
	code     int
	stdout   []string // each must appear on stdout
	stderr   []string // each must appear on stderr
	absent   []string // none may appear on stdout
	check    func(t *testing.T, stdout string)
}

func (c traceCase) run(t *testing.T) {
	t.Helper()
	tmp := t.TempDir()
	wd := filepath.Join(tmp, "workdir")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, content := range c.sessions {
		if err := os.MkdirAll(filepath.Join(wd, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wd, dir, "trace.jsonl"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range c.files {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.NewReplacer("{wd}", wd, "{tmp}", tmp).Replace(a)
	}
	o := mur(t, append([]string{"trace"}, args...)...)
	fail := o.code != c.code
	for _, s := range c.stdout {
		fail = fail || !strings.Contains(o.stdout, s)
	}
	for _, s := range c.stderr {
		fail = fail || !strings.Contains(o.stderr, s)
	}
	for _, s := range c.absent {
		fail = fail || strings.Contains(o.stdout, s)
	}
	if fail {
		t.Errorf("mur trace %s: exit %d\nstdout:\n%s\nstderr:\n%s\nwant exit %d, stdout with %q and without %q, stderr with %q",
			strings.Join(args, " "), o.code, o.stdout, o.stderr, c.code, c.stdout, c.absent, c.stderr)
	}
	if c.check != nil && !fail {
		c.check(t, o.stdout)
	}
}

func runTraceCases(t *testing.T, cases []traceCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

// sessions maps each session directory to its trace.
func sessions(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

var (
	ab  = sessions(sesA, fixtureA, sesB, fixtureB)
	abc = sessions(sesA, fixtureA, sesB, fixtureB, sesC, fixtureNoTools)
)

func TestTraceShow(t *testing.T) {
	runTraceCases(t, []traceCase{
		{name: "show_exits_zero_and_covers_all_metric_categories", files: sessions("a.jsonl", fixtureA), args: []string{"show", "{tmp}/a.jsonl"},
			stdout: []string{"capsule:    test-capsule v0.1.0", "model:      claude-3-5-sonnet", "session:    " + sesA, "status:     ok",
				"duration:   500ms", "count:      2  (max: 10)", "input:      2,200", "output:     350", "(1 ok, 0 error)",
				"exit codes: 1 ok", "fired:      no"}},
		{name: "show_includes_tokens_per_turn_average", files: sessions("a.jsonl", fixtureA), args: []string{"show", "{tmp}/a.jsonl"},
			stdout: []string{"(avg 1100/turn)"}},
		{name: "show_compaction_appears_with_turn_and_token_counts", files: sessions("b.jsonl", fixtureB), args: []string{"show", "{tmp}/b.jsonl"},
			stdout: []string{"fired:      yes  at turn 3  (5,300 → 2,000 tokens)"}},
		{name: "show_no_tool_calls_produces_zero_not_error", files: sessions("n.jsonl", fixtureNoTools), args: []string{"show", "{tmp}/n.jsonl"},
			stdout: []string{"── Tool calls ───────────────────────────────────\ncount:      0\n"}},
		{name: "show_max_turns_reached_status", files: sessions("b.jsonl", fixtureB), args: []string{"show", "{tmp}/b.jsonl"},
			stdout: []string{"status:     max_turns_reached"}},
		{name: "show_legacy_path_with_slash_passes_through", files: sessions("a.jsonl", fixtureA), args: []string{"show", "{tmp}/a.jsonl"},
			stdout: []string{"test-capsule"}},
		{name: "show_nonexistent_file_exits_nonzero_with_error", args: []string{"show", "{tmp}/does-not-exist.jsonl"}, code: exitFailure,
			stderr: []string{"error[E-IO-001]: trace file not found: "}},
		{name: "show_malformed_json_exits_nonzero_with_line_number", args: []string{"show", "{tmp}/bad.jsonl"}, code: exitFailure,
			files:  sessions("bad.jsonl", startRec(sesE, "x", "1.0", "m", 10)+"THIS IS NOT JSON\n"+endRec(sesE, 0, 0, 0, 0, 0, 100, "ok")),
			stderr: []string{"error[E-TRC-001]: ", "/bad.jsonl:2: invalid character"}},
		{name: "show_unknown_event_type_is_silently_skipped", args: []string{"show", "{tmp}/u.jsonl"},
			files: sessions("u.jsonl", startRec(sesF, "x", "1.0", "m", 10)+
				rec("event_type", "unknown_future_event", "session_id", sesF, "timestamp", 1100, "data", "something")+
				endRec(sesF, 0, 0, 0, 0, 0, 100, "ok")),
			stdout: []string{"status:     ok"}, absent: []string{"Tasks"}},
		{name: "show_empty_file_exits_nonzero", files: sessions("empty.jsonl", ""), args: []string{"show", "{tmp}/empty.jsonl"}, code: exitFailure,
			stderr: []string{"error[E-TRC-001]: ", "empty.jsonl: trace file is empty"}},
		{name: "trace_show_single_task_no_breakdown", files: sessions("one.jsonl", multiTask(1)), args: []string{"show", "{tmp}/one.jsonl"},
			absent: []string{"Tasks"}},
		{name: "trace_show_multi_task_breakdown", files: sessions("three.jsonl", multiTask(3)), args: []string{"show", "{tmp}/three.jsonl"},
			stdout: []string{"── Tasks", "task 1  tsk_00000000  turns: 2  in: 500  out: 100  ok  200ms", "task 2  tsk_00000001  turns: 4",
				"task 3  tsk_00000002  turns: 6  in: 1,500  out: 300  ok  600ms"},
			absent: []string{"task 4"}},
		{name: "trace_show_backward_compat_no_task_events", files: sessions("a.jsonl", fixtureA), args: []string{"show", "{tmp}/a.jsonl"},
			absent: []string{"Tasks"}},
		{name: "show_surfaces_reopen_events_and_count", files: sessions("r.jsonl", fixtureReopen), args: []string{"show", "{tmp}/r.jsonl"},
			stdout: []string{"── Reopens", "reopen 1  by gatekeeper  “tests still fail”"}},
	})
}

func TestTraceShowSelectsSession(t *testing.T) {
	runTraceCases(t, []traceCase{
		{name: "show_no_arg_single_session_resolves_correctly", sessions: sessions(sesA, fixtureA), args: []string{"show", "--workdir", "{wd}"},
			stdout: []string{"test-capsule", "500ms"}},
		{name: "show_no_arg_multiple_sessions_picks_lexicographically_largest", sessions: ab, args: []string{"show", "--workdir", "{wd}"},
			stdout: []string{"duration:   1.7s", "max_turns_reached"}},
		{name: "show_no_arg_empty_workdir_gives_clear_error", args: []string{"show", "--workdir", "{wd}"}, code: exitFailure,
			stderr: []string{"error[E-TRC-002]: no sessions found in workdir at "}},
		{name: "show_full_session_id_resolves_correctly", sessions: sessions(sesA, fixtureA), args: []string{"show", "--workdir", "{wd}", sesA},
			stdout: []string{"test-capsule"}},
		{name: "show_full_session_id_not_present_gives_clear_error", args: []string{"show", "--workdir", "{wd}", sesA}, code: exitFailure,
			stderr: []string{"error[E-TRC-002]: session " + sesA + " not found in "}},
		{name: "show_suffix_unique_match_resolves_correctly", sessions: ab, args: []string{"show", "--workdir", "{wd}", "0001"},
			stdout: []string{"duration:   500ms"}},
		{name: "show_suffix_no_match_gives_clear_error", sessions: sessions(sesA, fixtureA), args: []string{"show", "--workdir", "{wd}", "zzzzzzz"},
			code: exitFailure, stderr: []string{"error[E-TRC-002]: no session found matching suffix 'zzzzzzz' in "}},
		{name: "show_suffix_multiple_matches_gives_ambiguity_error", code: exitFailure,
			sessions: sessions("ses_aaaaaaaaaaaa4aaa8aaa000000000abc", fixtureA, "ses_bbbbbbbbbbbb4bbb8bbb000000000abc", fixtureB),
			args:     []string{"show", "--workdir", "{wd}", "abc"},
			stderr: []string{"error[E-TRC-002]: ambiguous: 'abc' matches 2 sessions — provide more characters\n" +
				"  ses_aaaaaaaaaaaa4aaa8aaa000000000abc\n  ses_bbbbbbbbbbbb4bbb8bbb000000000abc"}},
		// Murmur's test gives digits only; hex letters in capitals check the
		// case is ignored.
		{name: "show_suffix_case_insensitive", sessions: ab, args: []string{"show", "--workdir", "{wd}", "AAA8AAA000000000001"},
			stdout: []string{"session:    " + sesA}},
	})
}

func TestTraceDiff(t *testing.T) {
	paths := sessions("a.jsonl", fixtureA, "b.jsonl", fixtureB)
	byPath := []string{"diff", "{tmp}/a.jsonl", "{tmp}/b.jsonl"}
	runTraceCases(t, []traceCase{
		{name: "diff_exits_zero_and_shows_both_runs", files: paths, args: byPath,
			stdout: []string{"Metric                 Run A            Run B            Delta\n"}},
		{name: "diff_shows_turn_count_difference", files: paths, args: byPath,
			stdout: []string{"turns                  2                5                +3 (A better)\n"}},
		{name: "diff_shows_token_consumption_difference", files: paths, args: byPath,
			stdout: []string{"input tokens           2,200            9,700            +7500 (A better)\n"}},
		{name: "diff_shows_exit_status_for_both_runs", files: paths, args: byPath,
			stdout: []string{"exit status            ok               max_turns_reached —\n"}},
		{name: "diff_shows_compaction_difference", files: paths, args: byPath,
			stdout: []string{"compaction             none             turn 3           —\n"}},
		{name: "diff_better_worse_indicators_present", files: paths, args: byPath,
			stdout: []string{"tool success rate      100.0%           80.0%            -20.0 (A better)\n",
				"avg shell latency      50ms             36ms             -14ms (B better)\n"}},
		{name: "diff_legacy_path_passthrough_on_both_args", files: paths, args: byPath, stdout: []string{"Run A", "Run B"}},
		{name: "diff_nonexistent_file_a_exits_nonzero", files: paths, args: []string{"diff", "{tmp}/does-not-exist.jsonl", "{tmp}/b.jsonl"},
			code: exitFailure, stderr: []string{"error[E-IO-001]: trace file not found: "}},

		{name: "diff_both_full_session_ids_resolve", sessions: ab, args: []string{"diff", "--workdir", "{wd}", sesA, sesB},
			stdout: []string{"duration               500ms            1.7s             +1.2s (A better)\n"}},
		{name: "diff_both_suffixes_unambiguous_resolve", sessions: ab, args: []string{"diff", "--workdir", "{wd}", "0001", "0002"},
			stdout: []string{"500ms            1.7s"}},
		{name: "diff_ambiguous_suffix_names_which_argument", code: exitFailure,
			sessions: sessions("ses_aaaaaaaaaaaa4aaa8aaa000000000abc", fixtureA, "ses_bbbbbbbbbbbb4bbb8bbb000000000abc", fixtureB,
				"ses_cccccccccccc4ccc8ccc000000000002", fixtureNoTools),
			args:   []string{"diff", "--workdir", "{wd}", "abc", "0002"},
			stderr: []string{"error[E-TRC-002]: before: ambiguous: 'abc' matches 2 sessions"}},
		{name: "diff_ordinal_at1_and_at2_resolve_to_correct_sessions", sessions: ab, args: []string{"diff", "--workdir", "{wd}", "@2", "@1"},
			stdout: []string{"500ms            1.7s", "ok               max_turns_reached"}},
		{name: "diff_ordinal_out_of_range_gives_clear_error", sessions: ab, args: []string{"diff", "--workdir", "{wd}", "@1", "@3"},
			code: exitFailure, stderr: []string{"error[E-TRC-002]: after: @3 is out of range — workdir has 2 sessions"}},
		{name: "diff_mixed_full_id_and_suffix", sessions: ab, args: []string{"diff", "--workdir", "{wd}", sesA, "0002"},
			stdout: []string{"500ms            1.7s"}},
		{name: "diff_both_args_fail_reports_both_errors", sessions: sessions(sesA, fixtureA), args: []string{"diff", "--workdir", "{wd}", "zzzz", "yyyy"},
			code: exitFailure, stderr: []string{"error[E-TRC-002]: before: no session found matching suffix 'zzzz' in ",
				"\nafter: no session found matching suffix 'yyyy' in "}},
		{name: "diff_no_args_defaults_to_two_most_recent_sessions", sessions: ab, args: []string{"diff", "--workdir", "{wd}"},
			stdout: []string{"500ms            1.7s", "ok               max_turns_reached"}},
		// A command line with one selector is a usage error: exit 2.
		{name: "diff_one_arg_gives_clear_error", sessions: sessions(sesA, fixtureA), args: []string{"diff", "--workdir", "{wd}", sesA},
			code: exitUsage, stderr: []string{"error[E-TRC-002]: mur trace diff expects 0 or 2 arguments, got 1"}},
		{name: "diff_two_args_resolves_normally", sessions: ab, args: []string{"diff", "--workdir", "{wd}", "0001", "0002"},
			stdout: []string{"Run A", "Run B"}},
	})
}

func TestTraceReport(t *testing.T) {
	// Sessions whose ids say they were created some minutes ago.
	now := time.Now().UnixMilli()
	ago := func(minutes, i int64) string { return fmt.Sprintf("ses_%012x4aaa8aaa%012x", now-minutes*60_000, i) }
	report := []string{"report", "--workdir", "{wd}"}
	runTraceCases(t, []traceCase{
		{name: "report_exits_zero_and_shows_session_count", sessions: abc, args: report, stdout: []string{"Sessions: 3  ("}},
		{name: "report_shows_aggregate_statistics", sessions: abc, args: report,
			stdout: []string{"Metric                 Mean           StdDev         Min            Max\n",
				"turns                  2.7            1.7            1.0            5.0\n",
				"input tokens           4,133          3,996          500            9,700\n",
				"output tokens          513            420            100            1,090\n"}},
		{name: "report_shows_exit_status_distribution", sessions: abc, args: report,
			stdout: []string{"Exit status:\n  max_turns_reached        1  (33.3%)\n  ok                       2  (66.7%)\n"}},
		{name: "report_works_with_single_session", sessions: sessions(sesA, fixtureA), args: report, stdout: []string{"Sessions: 1  ("}},
		{name: "report_no_args_includes_all_sessions", sessions: abc, args: report, stdout: []string{"Sessions: 3  ("}},
		{name: "report_last_n_picks_most_recent",
			sessions: sessions(sesA, fixtureA, sesB, fixtureA, sesC, fixtureA, sesD, fixtureA, sesE, fixtureA),
			args:     append(report, "--last", "3"), stdout: []string{"Sessions: 3  ("}},
		{name: "report_since_filters_by_timestamp",
			sessions: sessions(ago(30, 1), fixtureA, ago(20, 2), fixtureA, ago(120, 3), fixtureA, ago(180, 4), fixtureA),
			args:     append(report, "--since", "1h"), stdout: []string{"Sessions: 2  ("}},
		{name: "report_explicit_sessions_only_those_included", sessions: abc, args: append(report, sesA, sesB),
			stdout: []string{"Sessions: 2  ("}},
		// Flags that do not go together are a usage error: exit 2.
		{name: "report_since_combined_with_explicit_sessions_errors", sessions: sessions(sesA, fixtureA),
			args: append(report, "--since", "1h", sesA), code: exitUsage,
			stderr: []string{"error[E-TRC-002]: --since cannot be combined with explicit session arguments"}},
		{name: "report_last_combined_with_explicit_sessions_errors", sessions: sessions(sesA, fixtureA),
			args: append(report, "--last", "1", sesA), code: exitUsage,
			stderr: []string{"error[E-TRC-002]: --last cannot be combined with explicit session arguments"}},
		{name: "report_nonexistent_workdir_exits_nonzero", args: []string{"report", "--workdir", "{tmp}/no-such-dir"}, code: exitFailure,
			stderr: []string{"error[E-IO-001]: workdir not found: "}},
		{name: "trace_report_per_task_averages_section", sessions: sessions(sesA, multiTask(3), sesB, multiTask(3)), args: report,
			stdout: []string{"── Per-task averages (multi-task sessions only) ──────────────\n", "task turns             4.0", "Tasks: 6\n"}},
		{name: "trace_report_no_per_task_section_when_all_single_task", sessions: sessions(sesA, multiTask(1), sesB, fixtureA), args: report,
			stdout: []string{"Sessions: 2"}, absent: []string{"Per-task averages"}},
		{name: "report_empty_workdir_gives_clear_error", args: report, code: exitFailure,
			stderr: []string{"error[E-TRC-002]: no sessions found in workdir at "}},
		{name: "report_skips_incomplete_sessions_and_reports_complete_ones", sessions: sessions(sesA, fixtureA, sesB, fixtureB, sesC, ""),
			args: report, stdout: []string{"Sessions: 2  ("}, stderr: []string{"note: skipped 1 incomplete session(s)\n"}},
		{name: "report_all_incomplete_sessions_is_an_error", sessions: sessions(sesA, "", sesB, ""), args: report, code: exitFailure,
			stderr: []string{"error[E-TRC-001]: no complete sessions to report — all traces are empty or incomplete"}},
	})
}

func TestTraceReportSessionBlocks(t *testing.T) {
	report := []string{"report", "--workdir", "{wd}"}
	runTraceCases(t, []traceCase{
		{name: "report_session_block_header_shows_id_duration_turns", sessions: sessions(sesA, fixtureA), args: report,
			stdout: []string{"Session ses_aaaaaaaa...  500ms  2 turns\n"}},
		{name: "report_session_block_no_error_no_parenthetical", sessions: sessions(sesA, fixtureA), args: report,
			stdout: []string{"  Tool calls:    1\n"}, absent: []string{"ok, 0 error"}},
		{name: "report_session_block_error_shows_parenthetical", sessions: sessions(sesB, fixtureB), args: report,
			stdout: []string{"  Tool calls:    5  (4 ok, 1 error)\n"}},
		{name: "report_session_block_exit_codes_sorted_by_frequency", sessions: sessions(sesB, fixtureB), args: report,
			stdout: []string{"  Shell calls:   5  exit codes: 4 ok, 1 failed (exit 1)\n"}},
		{name: "report_session_block_no_shell_calls_omits_shell_line", sessions: sessions(sesC, fixtureNoTools), args: report,
			absent: []string{"Shell calls:"}},
		{name: "report_session_block_latency_shown_with_correct_averages", sessions: sessions(sesA, fixtureA), args: report,
			stdout: []string{"  Avg latency:   tool 100ms  shell 50ms\n"}},
		{name: "report_session_block_multi_tool_latency_average", sessions: sessions(sesB, fixtureB), args: report,
			stdout: []string{"tool 188ms  shell 36ms"}},
		{name: "report_session_block_latency_omitted_when_no_tool_calls", sessions: sessions(sesC, fixtureNoTools), args: report,
			absent: []string{"Avg latency:"}},
	})
}

func TestTraceSteps(t *testing.T) {
	runTraceCases(t, []traceCase{
		{name: "steps_no_arg_resolves_to_last_session", sessions: ab, args: []string{"steps", "--workdir", "{wd}"},
			stdout: []string{"Session " + sesB + "  (5 turns)\n"}},
		{name: "steps_explicit_session_suffix_resolves", sessions: ab, args: []string{"steps", "--workdir", "{wd}", "0001"},
			stdout: []string{"Session " + sesA + "  (2 turns)\n"}},
		{name: "steps_default_output_format", files: sessions("trace.jsonl", fixtureA), args: []string{"steps", "{tmp}/trace.jsonl"},
			stdout: []string{"Session " + sesA + "  (2 turns)\n\n", "  1  tool_call    bash        100ms\n", "  2  end_turn     —           —\n"}},
		{name: "steps_end_turn_renders_dash", files: sessions("trace.jsonl", fixtureA), args: []string{"steps", "{tmp}/trace.jsonl"},
			stdout: []string{"end_turn     —"}},
		{name: "steps_verbose_truncates_long_input_at_60_chars", args: []string{"steps", "--verbose", "{tmp}/trace.jsonl"},
			files:  sessions("trace.jsonl", oneBashTurn("ses_pppppppppppp4ppp8ppp000000000001", strings.Repeat("x", 70), 50, 300)),
			stdout: []string{`50ms    "` + strings.Repeat("x", 60) + `…"`}, absent: []string{strings.Repeat("x", 61)}},
		{name: "steps_zero_turns_shows_header_and_no_rows", args: []string{"steps", "{tmp}/trace.jsonl"},
			files:  sessions("trace.jsonl", startRec("ses_zzzzzzzzzzzz4zzz8zzz000000000001", "empty", "0.1.0", "m", 10)+endRec("ses_zzzzzzzzzzzz4zzz8zzz000000000001", 0, 0, 0, 0, 0, 100, "ok")),
			stdout: []string{"(0 turns)"}, absent: []string{"tool_call", "end_turn"}},
		{name: "steps_sub_second_duration_renders_as_ms", args: []string{"steps", "{tmp}/trace.jsonl"},
			files:  sessions("trace.jsonl", oneBashTurn("ses_pppppppppppp4ppp8ppp000000000001", "cargo build", 50, 300)),
			stdout: []string{"bash        50ms\n"}},
		{name: "steps_exactly_1000ms_renders_as_1_0s", args: []string{"steps", "{tmp}/trace.jsonl"},
			files:  sessions("trace.jsonl", oneBashTurn("ses_qqqqqqqqqqqq4qqq8qqq000000000001", "cmd", 1000, 5000)),
			stdout: []string{"bash        1.0s\n"}},
		{name: "steps_end_turn_duration_is_dash", files: sessions("trace.jsonl", fixtureA), args: []string{"steps", "{tmp}/trace.jsonl"},
			stdout: []string{"end_turn     —           —\n"}},
		{name: "steps_mixed_ms_and_s_durations_both_appear", files: sessions("trace.jsonl", twoBashTurns(500, 1500)),
			args: []string{"steps", "{tmp}/trace.jsonl"}, stdout: []string{"bash        500ms\n", "bash        1.5s\n"}},
	})
}

func TestTraceShowToolInput(t *testing.T) {
	// An input whose compact JSON has a two-byte character across byte 120.
	wide := map[string]string{"cmd": "x" + strings.Repeat("é", 200)}
	const sesUTF8 = "ses_4444444444444444844400000000004d"
	utf8Trace := startRec(sesUTF8, "utf8-test", "1.0.0", "claude-test", 10) +
		toolRec(sesUTF8, 0, "bash", 30, "ok", "input", wide) +
		endRec(sesUTF8, 1, 100, 20, 1, 0, 400, "ok")
	b, _ := json.Marshal(wide)
	if r := []rune(string(b)); len(string(r[:120])) == 120 {
		t.Fatal("the fixture does not put a multi-byte character across byte 120")
	}
	runTraceCases(t, []traceCase{
		{name: "show_tool_call_input_rendered", args: []string{"show", "{tmp}/in.jsonl"},
			files:  sessions("in.jsonl", inputSession("ses_1111111111114111811100000000001a", "input-test", "input", map[string]string{"command": "echo hello"})),
			stdout: []string{`  turn 0  bash 30ms ✓  {"command":"echo hello"}` + "\n"}},
		{name: "show_tool_call_input_truncates_on_char_boundary", files: sessions("utf8.jsonl", utf8Trace), args: []string{"show", "{tmp}/utf8.jsonl"},
			stdout: []string{`  turn 0  bash 30ms ✓  {"cmd":"x` + strings.Repeat("é", 111) + "…\n"}},
		{name: "old_trace_without_input_field_still_parses", args: []string{"show", "{tmp}/old.jsonl"},
			files:  sessions("old.jsonl", inputSession("ses_2222222222224222822200000000002b", "old-test")),
			stdout: []string{"capsule:    old-test v1.0.0", "status:     ok", "  turn 0  bash 30ms ✓\n"}},
		{name: "show_trace_with_output_field_parses_cleanly", args: []string{"show", "{tmp}/out.jsonl"},
			files: sessions("out.jsonl", inputSession("ses_3333333333334333833300000000003c", "output-test",
				"input", map[string]string{"command": "ls"}, "output", "file.txt\n")),
			stdout: []string{"capsule:    output-test", `bash 30ms ✓  {"command":"ls"}`}},
	})
}

func TestTraceShowRedundantCalls(t *testing.T) {
	show := []string{"show", "{tmp}/t.jsonl"}
	none := "── Redundant calls ──────────────────────────────\ncount:      0\n\n"
	one := func(line string) []string {
		return []string{"── Redundant calls ──────────────────────────────\ncount:      1\n" + line + "\n\n"}
	}
	runTraceCases(t, []traceCase{
		{name: "show_flags_reread_with_no_intervening_write", files: sessions("t.jsonl", fixtureReread), args: show,
			stdout: one("  turn 2  read_file  src/foo.rs  (re-reads turn 1)")},
		{name: "show_intervening_write_clears_redundancy", files: sessions("t.jsonl", fixtureWriteClears), args: show,
			stdout: []string{none}, absent: []string{"re-reads"}},
		{name: "show_cross_tool_find_then_read_is_flagged", files: sessions("t.jsonl", fixtureCrossTool), args: show,
			stdout: one("  turn 2  read_file  src/bar.rs  (re-reads turn 1)")},
		{name: "show_no_path_field_never_flagged_no_panic", files: sessions("t.jsonl", fixtureNoPathField), args: show,
			stdout: []string{none}},
		{name: "show_flags_novel_tool_by_declaration_only", files: sessions("t.jsonl", fixtureNovelTool), args: show,
			stdout: one("  turn 2  acme-codenav  src/lib.rs  (re-reads turn 1)")},
		{name: "show_novel_tool_declared_mutate_clears_redundancy", files: sessions("t.jsonl", fixtureNovelToolMutate), args: show,
			stdout: []string{none}, absent: []string{"re-reads"}},
		{name: "show_undeclared_calls_get_no_detection", files: sessions("t.jsonl", fixtureUndeclared), args: show,
			stdout: []string{none}, absent: []string{"re-reads"}},
		{name: "show_undeclared_intervening_call_invalidates_conservatively", files: sessions("t.jsonl", fixtureUndeclaredInvalidates), args: show,
			stdout: []string{none}, absent: []string{"re-reads"}},
		{name: "show_zero_redundant_on_existing_fixtures", files: sessions("t.jsonl", fixtureA), args: show, stdout: []string{none}},
		{name: "show_flags_symbol_addressed_tool_via_declared_resource_id", files: sessions("t.jsonl", fixtureResourceSymbol), args: show,
			stdout: one("  turn 2  murmur-tool-code-graph  Foo::bar  (re-reads turn 1)")},
		{name: "show_declared_resource_id_takes_precedence_over_path_field", files: sessions("t.jsonl", fixtureResourcePrecedence), args: show,
			stdout: one("  turn 2  acme-codenav  sym:Widget#7  (re-reads turn 1)"),
			check: func(t *testing.T, stdout string) {
				// The tool calls section shows the input, path and all; the
				// redundant call's line must not.
				for _, l := range strings.Split(stdout, "\n") {
					if strings.Contains(l, "re-reads") && strings.Contains(l, "src/foo.rs") {
						t.Errorf("the identity came from the path field, not resource_id: %q", l)
					}
				}
			}},
		{name: "show_empty_resource_id_falls_back_to_path_field", files: sessions("t.jsonl", fixtureResourceEmpty), args: show,
			stdout: one("  turn 2  acme-codenav  src/foo.rs  (re-reads turn 1)")},
		{name: "show_declared_mutate_clears_redundancy_for_declared_resource_id", files: sessions("t.jsonl", fixtureResourceMutate), args: show,
			stdout: []string{none}, absent: []string{"re-reads"}},
	})
}

func TestTraceReportRedundantCalls(t *testing.T) {
	report := []string{"report", "--workdir", "{wd}"}
	runTraceCases(t, []traceCase{
		{name: "report_shows_redundant_calls_row_and_per_session_line",
			sessions: sessions(sesD, fixtureReread, sesF, fixtureCrossTool, sesA, fixtureA), args: report,
			stdout: []string{"  Redundant calls: 1\n", "redundant calls        0.7            0.5            0.0            1.0\n"}},
		{name: "report_redundant_row_stats_are_correct", sessions: sessions(sesD, fixtureReread, sesA, fixtureA), args: report,
			check: func(t *testing.T, stdout string) {
				const want = "redundant calls        0.5            0.5            0.0            1.0"
				for _, l := range strings.Split(stdout, "\n") {
					if strings.HasPrefix(l, "redundant calls") {
						if l != want {
							t.Errorf("row %q, want %q", l, want)
						}
						return
					}
				}
				t.Errorf("no redundant calls row:\n%s", stdout)
			}},
	})
}

// What mur-go's trace has beyond Murmur's is shown where it occurs: the
// launch's security warnings, a call a cancellation interrupted, how a
// native tool that failed ended, the cancelled exit status; Murmur's
// lines around them stay as they are.
func TestTraceShowsMurGoFields(t *testing.T) {
	const sid = "ses_0199aaaaaaaa7aaa8aaa000000000001"
	tr := rec("event_type", "session_start", "session_id", sid, "timestamp", 1, "capsule_name", "agent", "capsule_version", "0.1.0",
		"model", "m", "max_turns", 10, "security_warnings", []map[string]string{{"code": "W-SEC-010", "message": "no cgroup scope bounds the subprocesses"}}) +
		inferRec(sid, 1, 10, 5, "tool_call", "envdump") +
		toolRec(sid, 1, "envdump", 20, "ok", "exit_code", 0) +
		toolRec(sid, 1, "crash", 30, "error", "exit_code", 3) +
		toolRec(sid, 1, "hang", 40, "error", "exit_code", 137, "signal", "SIGKILL") +
		inferRec(sid, 2, 10, 5, "tool_call", "sleep") +
		toolRec(sid, 2, "sleep", 1500, "error", "input", map[string]string{"command": "sleep 60"}, "cancelled", true) +
		endRec(sid, 2, 20, 10, 4, 0, 1600, "cancelled")
	runTraceCases(t, []traceCase{
		{name: "mur-go fields in show", files: sessions("t.jsonl", tr), args: []string{"show", "{tmp}/t.jsonl"},
			stdout: []string{"status:     cancelled\nduration:   1.6s\nwarning:    W-SEC-010: no cgroup scope bounds the subprocesses\n\n",
				"count:      4  (1 ok, 3 error)  success 25.0%\n",
				"  turn 1  envdump 20ms ✓  crash 30ms ✗ exit 3  hang 40ms ✗ killed by SIGKILL\n",
				`  turn 2  sleep 1.5s ✗ cancelled  {"command":"sleep 60"}` + "\n"}},
		{name: "cancelled in the report", files: sessions("t.jsonl", tr), args: []string{"report", "{tmp}/t.jsonl"},
			stdout: []string{"  cancelled                1  (100.0%)\n"}},
	})
}

// Selectors mur-go accepts beyond Murmur's: the sessions of a run with
// `mur run --workdir DIR` (in DIR/.murmur/) found from DIR, a session
// directory for its trace, @N for show, steps and report.
func TestTraceSelectsBeyondMurmur(t *testing.T) {
	byRun := sessions(".murmur/"+sesB, fixtureB, sesA, fixtureA)
	runTraceCases(t, []traceCase{
		{name: "newest across workdir and .murmur", sessions: byRun, args: []string{"show", "--workdir", "{wd}"},
			stdout: []string{"session:    " + sesB}},
		{name: "full id in .murmur", sessions: byRun, args: []string{"show", "--workdir", "{wd}", sesB},
			stdout: []string{"session:    " + sesB}},
		{name: "suffix in .murmur", sessions: byRun, args: []string{"steps", "--workdir", "{wd}", "0002"},
			stdout: []string{"Session " + sesB}},
		{name: "report over both", sessions: byRun, args: []string{"report", "--workdir", "{wd}"},
			stdout: []string{"Sessions: 2  ("}},
		{name: "ambiguous across both", code: exitFailure,
			sessions: sessions(".murmur/ses_aaaaaaaaaaaa4aaa8aaa000000000abc", fixtureA, "ses_bbbbbbbbbbbb4bbb8bbb000000000abc", fixtureB),
			args:     []string{"show", "--workdir", "{wd}", "ABC"},
			stderr:   []string{"matches 2 sessions — provide more characters\n  .murmur/ses_aaaaaaaaaaaa4aaa8aaa000000000abc\n  ses_bbbbbbbbbbbb4bbb8bbb000000000abc"}},
		{name: "a session directory", sessions: ab, args: []string{"show", "{wd}/" + sesA},
			stdout: []string{"session:    " + sesA}},
		{name: "@N for show", sessions: ab, args: []string{"show", "--workdir", "{wd}", "@2"},
			stdout: []string{"session:    " + sesA}},
		{name: "@N for report", sessions: abc, args: []string{"report", "--workdir", "{wd}", "@1", "@3"},
			stdout: []string{"Sessions: 2  (", "Session ses_aaaaaaaa...", "Session ses_cccccccc..."}, absent: []string{"ses_bbbbbbbb"}},
		{name: "@0", sessions: ab, args: []string{"show", "--workdir", "{wd}", "@0"}, code: exitFailure,
			stderr: []string{"error[E-TRC-002]: ordinal must be @1 or higher"}},
		{name: "@x", sessions: ab, args: []string{"diff", "--workdir", "{wd}", "@x", "@1"}, code: exitFailure,
			stderr: []string{"error[E-TRC-002]: before: invalid ordinal '@x' — expected @1, @2, ..."}},
		{name: "--last 0", sessions: ab, args: []string{"report", "--workdir", "{wd}", "--last", "0"}, code: exitUsage,
			stderr: []string{"error[E-TRC-002]: --last must be at least 1"}},
		{name: "bad --since", sessions: ab, args: []string{"report", "--workdir", "{wd}", "--since", "2w"}, code: exitUsage,
			stderr: []string{"error[E-TRC-002]: unrecognised --since format '2w' — expected <N>m, <N>h, or <N>d"}},
		{name: "--since matches none", sessions: sessions("ses_0000000000017000800000000000000a", fixtureA), args: []string{"report", "--workdir", "{wd}", "--since", "1h"}, code: exitFailure,
			stderr: []string{"error[E-TRC-002]: no sessions matched --since 1h in workdir at "}},
		{name: "two sessions for show", sessions: ab, args: []string{"show", "--workdir", "{wd}", "@1", "@2"}, code: exitUsage,
			stderr: []string{`unexpected argument "@2"`}},
	})
}
