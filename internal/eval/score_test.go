package eval

import (
	"reflect"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
)

// Each scorer judges as Murmur's documents it; the dataset_run fails if
// any scorer failed, and carries every score under its scorer's name.
func TestScore(t *testing.T) {
	ok := Observation{ExitStatus: "ok", Turns: 3, InputTokens: 60, OutputTokens: 40, Tools: []string{"read", "grep", "write"}}
	for _, tc := range []struct {
		name   string
		scorer manifest.Scorer
		o      Observation
		pass   bool
		reason string
	}{
		{"exit ok", manifest.Scorer{Type: ScorerExitOK, Name: "x"}, ok, true, "exit_status=ok"},
		{"exit failed", manifest.Scorer{Type: ScorerExitOK, Name: "x"}, Observation{ExitStatus: "failed"}, false, "exit_status=failed"},
		{"turns at the limit", manifest.Scorer{Type: ScorerMaxTurns, Name: "x", Max: 3}, ok, true, "turns=3 max=3"},
		{"turns over", manifest.Scorer{Type: ScorerMaxTurns, Name: "x", Max: 2}, ok, false, "turns=3 max=2"},
		{"tokens at the limit", manifest.Scorer{Type: ScorerMaxTokens, Name: "x", Max: 100}, ok, true, "tokens=100 max=100"},
		{"tokens over", manifest.Scorer{Type: ScorerMaxTokens, Name: "x", Max: 99}, ok, false, "tokens=100 max=99"},
		{"tools in order with a gap", manifest.Scorer{Type: ScorerToolSequence, Name: "x", Expected: []string{"read", "write"}}, ok, true,
			"expected=[read,write] observed=[read,grep,write]"},
		{"tools out of order", manifest.Scorer{Type: ScorerToolSequence, Name: "x", Expected: []string{"write", "read"}}, ok, false,
			"expected=[write,read] observed=[read,grep,write]"},
		{"no tools expected", manifest.Scorer{Type: ScorerToolSequence, Name: "x", Expected: []string{}}, Observation{}, true, "expected=[] observed=[]"},
		{"a type not judged", manifest.Scorer{Type: ScorerLLMJudge, Name: "x"}, ok, false, "not implemented in mur-go: scorer type llm_judge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events, run := Score([]manifest.Scorer{tc.scorer}, tc.o, 5, nil, nil)
			e := events[0]
			want, score := Fail, 0.0
			if tc.pass {
				want, score = Pass, 1
			}
			if e.Result != want || *e.Score != score || *e.Reason != tc.reason || e.Turn != tc.o.Turns || e.TS != 5 || e.EventType != "session_end" {
				t.Errorf("%+v (reason %q)", e, *e.Reason)
			}
			if run.Overall != want || run.Scores["x"] != score {
				t.Errorf("run %+v", run)
			}
		})
	}
	ds, id := "d", "c"
	_, run := Score([]manifest.Scorer{{Type: ScorerExitOK, Name: "a"}, {Type: ScorerMaxTurns, Name: "b", Max: 1}, {Type: ScorerExitOK, Name: "c"}}, ok, 9, &ds, &id)
	if want := (DatasetRun{TS: 9, DatasetID: &ds, CaseID: &id, Overall: Fail, Scores: map[string]float64{"a": 1, "b": 0, "c": 1}}); !reflect.DeepEqual(run, want) {
		t.Errorf("run %+v", run)
	}
	if _, run := Score(nil, ok, 9, nil, nil); run.Overall != NoScores {
		t.Errorf("no scorers: %+v", run)
	}
}
