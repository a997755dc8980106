package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

const agentHead = `name: a
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: m
  driver: {artifact: d}
artifacts:
  - {name: d, version: "0.1.0", runtime: driver}
`

// What mur eval run cannot score is refused before any case runs.
func TestCheck(t *testing.T) {
	scorers := "observability: {eval: {scorers: [{type: exit_ok}]}}\n"
	for _, tc := range []struct {
		name, yaml string
		code       diag.Code
		err        string
	}{
		{"an agent with a scorer", agentHead + scorers, "", ""},
		{"queue then exit", agentHead + scorers + "lifecycle: {task_acceptance: queue}\n", "", ""},
		{"a script capsule", "name: s\nversion: \"0.1.0\"\n" + scorers, CodeNotImplemented, "not implemented: mur eval run of a script capsule"},
		{"queue and sleep", agentHead + scorers + "lifecycle: {task_acceptance: queue, after_task: sleep}\n", CodeInvalid, "never ends a session"},
		{"no eval block", agentHead, CodeMissing, "observability.eval.scorers declares no scorer"},
		{"no scorers", agentHead + "observability: {eval: {dataset_id: d}}\n", CodeMissing, "declares no scorer"},
		{"only an unknown type", agentHead + "observability: {eval: {scorers: [{type: vibes}]}}\n", CodeMissing, "declares no scorer"},
		{"llm_judge", agentHead + "observability: {eval: {scorers: [{type: exit_ok}, {type: llm_judge, name: judge}]}}\n",
			CodeNotImplemented, "not implemented: scorer type llm_judge (scorer 'judge')"},
		{"one name twice", agentHead + "observability: {eval: {scorers: [{type: exit_ok, name: s}, {type: max_turns, name: s}]}}\n",
			CodeInvalid, "two scorers in observability.eval.scorers are named 's'"},
		{"a type's default name twice", agentHead + "observability: {eval: {scorers: [{type: exit_ok}, {type: exit_ok}]}}\n",
			CodeInvalid, "named 'exit_ok'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, err := manifest.Parse([]byte(tc.yaml), "murmur.yaml", manifest.ParseOptions{Role: manifest.RoleCapsule})
			if err != nil {
				t.Fatal(err)
			}
			err = Check(f)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var d *diag.Error
			if !errors.As(err, &d) || d.Code != tc.code || !strings.Contains(d.Msg, tc.err) || d.Pos.File != "murmur.yaml" {
				t.Errorf("error %v, want %s %q", err, tc.code, tc.err)
			}
		})
	}
}
