package eval

import (
	"cmp"
	"slices"
)

// Record types of eval.jsonl (its record_type field).
const (
	TypeEventScore = "event_score"
	TypeDatasetRun = "dataset_run"
)

// Outcomes: a scorer's result, a session's or a case's overall.
const (
	Pass     = "pass"
	Fail     = "fail"
	NoScores = "no_scores"
	// StageFailed is a case whose session never started.
	StageFailed = "stage_failed"
)

// EventScore is one scorer's verdict on a session (record_type
// event_score).
type EventScore struct {
	TS        uint64
	Turn      uint32
	EventType string
	Scorer    string
	// Result is pass or fail as written; any other word counts as a
	// failure in pass rates, as in Murmur.
	Result string
	// Score and Reason are nil when the line has none.
	Score  *float64
	Reason *string
}

// DatasetRun is a session's summary (record_type dataset_run).
type DatasetRun struct {
	TS        uint64
	DatasetID *string
	CaseID    *string
	Overall   string
	Scores    map[string]float64
}

// File is one eval.jsonl as read: its event scores in order and its last
// dataset_run (nil when it has none).
type File struct {
	Events []EventScore
	Run    *DatasetRun
}

// Rate is a scorer's tally over a file's event scores.
type Rate struct {
	Pass, Fail int
}

// Total is how many times the scorer ran.
func (r Rate) Total() int { return r.Pass + r.Fail }

// PassRate is the share of passes, 0 for no runs.
func (r Rate) PassRate() float64 {
	if r.Total() == 0 {
		return 0
	}
	return float64(r.Pass) / float64(r.Total())
}

// ScorerRate is one scorer's name and tally.
type ScorerRate struct {
	Scorer string
	Rate
}

// Rates are the pass tallies per scorer, sorted by name.
func (f *File) Rates() []ScorerRate {
	m := map[string]*Rate{}
	var out []ScorerRate
	for _, e := range f.Events {
		r := m[e.Scorer]
		if r == nil {
			r = &Rate{}
			m[e.Scorer] = r
		}
		if e.Result == Pass {
			r.Pass++
		} else {
			r.Fail++
		}
	}
	for name, r := range m {
		out = append(out, ScorerRate{name, *r})
	}
	slices.SortFunc(out, func(a, b ScorerRate) int { return cmp.Compare(a.Scorer, b.Scorer) })
	return out
}

// Overall is the dataset_run's overall when there is one; else pass when
// every scorer passed every time, no_scores with no scores, fail
// otherwise.
func (f *File) Overall() string {
	if f.Run != nil {
		return f.Run.Overall
	}
	rates := f.Rates()
	if len(rates) == 0 {
		return NoScores
	}
	for _, r := range rates {
		if r.Fail != 0 || r.Pass == 0 {
			return Fail
		}
	}
	return Pass
}

// Worst are the first n event scores whose result is fail, by scorer
// then turn.
func (f *File) Worst(n int) []EventScore {
	var fails []EventScore
	for _, e := range f.Events {
		if e.Result == Fail {
			fails = append(fails, e)
		}
	}
	slices.SortStableFunc(fails, func(a, b EventScore) int {
		return cmp.Or(cmp.Compare(a.Scorer, b.Scorer), cmp.Compare(a.Turn, b.Turn))
	})
	return fails[:min(n, len(fails))]
}

// SortedScores are a dataset_run's scores as name/score pairs by name.
func (r *DatasetRun) SortedScores() []NamedScore {
	out := make([]NamedScore, 0, len(r.Scores))
	for k, v := range r.Scores {
		out = append(out, NamedScore{k, v})
	}
	slices.SortFunc(out, func(a, b NamedScore) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// NamedScore is one entry of a dataset_run's scores.
type NamedScore struct {
	Name  string
	Score float64
}
