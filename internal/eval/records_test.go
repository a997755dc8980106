package eval

import (
	"reflect"
	"testing"
)

func ev(scorer, result string, turn uint32) EventScore {
	return EventScore{Scorer: scorer, Result: result, Turn: turn, EventType: "session_end"}
}

// Pass rates count every result but pass as a failure; overall is the
// dataset_run's when there is one; the worst events are the fails by
// scorer then turn, five at most.
func TestRatesOverallWorst(t *testing.T) {
	f := &File{Events: []EventScore{ev("b", Fail, 3), ev("a", Pass, 1), ev("b", "error", 1), ev("b", Fail, 1),
		ev("c", Fail, 9), ev("c", Fail, 2), ev("d", Fail, 1), ev("e", Fail, 1)}}
	want := []ScorerRate{{"a", Rate{1, 0}}, {"b", Rate{0, 3}}, {"c", Rate{0, 2}}, {"d", Rate{0, 1}}, {"e", Rate{0, 1}}}
	if got := f.Rates(); !reflect.DeepEqual(got, want) {
		t.Errorf("rates %v", got)
	}
	if f.Overall() != Fail {
		t.Errorf("overall %s", f.Overall())
	}
	var worst []string
	for _, e := range f.Worst(5) {
		worst = append(worst, e.Scorer+":"+string(rune('0'+e.Turn)))
	}
	if !reflect.DeepEqual(worst, []string{"b:1", "b:3", "c:2", "c:9", "d:1"}) {
		t.Errorf("worst %v", worst)
	}
	for _, tc := range []struct {
		f    File
		want string
	}{
		{File{}, NoScores},
		{File{Events: []EventScore{ev("a", Pass, 1), ev("b", Pass, 2)}}, Pass},
		{File{Events: []EventScore{ev("a", Pass, 1)}, Run: &DatasetRun{Overall: "fail"}}, Fail},
	} {
		if got := tc.f.Overall(); got != tc.want {
			t.Errorf("%+v: overall %s, want %s", tc.f, got, tc.want)
		}
	}
}

func TestDiff(t *testing.T) {
	a := &File{Events: []EventScore{ev("same", Pass, 1), ev("drop", Pass, 1), ev("rise", Fail, 1), ev("rise", Pass, 1), ev("gone", Pass, 1)}}
	b := &File{Events: []EventScore{ev("same", Pass, 1), ev("drop", Fail, 1), ev("rise", Pass, 1), ev("new", Fail, 1)}}
	type row struct {
		scorer string
		d      Delta
		pp     float64
	}
	var got []row
	for _, r := range Diff(a, b) {
		d, pp := r.Delta()
		got = append(got, row{r.Scorer, d, pp})
	}
	want := []row{{"drop", ABetter, -100}, {"gone", AOnly, 0}, {"new", BOnly, 0}, {"rise", BBetter, 50}, {"same", Equal, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff %v", got)
	}
}
