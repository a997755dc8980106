package eval

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/format/manifest"
)

// Scorer types (observability.eval.scorers[].type).
const (
	ScorerExitOK       = "exit_ok"
	ScorerMaxTurns     = "max_turns"
	ScorerMaxTokens    = "max_tokens"
	ScorerToolSequence = "tool_sequence"
	ScorerLLMJudge     = "llm_judge"
)

// sessionEnd is the event every score is taken at, as in Murmur.
const sessionEnd = "session_end"

// Observation is what the scorers judge a session by: what its agent
// loop reported while it ran, and how it ended.
type Observation struct {
	// ExitStatus is ok for a session that ended well, else the failed
	// task's status (failed, cancelled, …) or the run's.
	ExitStatus string
	// Turns, InputTokens and OutputTokens are the session's totals.
	Turns                     uint32
	InputTokens, OutputTokens uint64
	// Tools are the names of the tool calls that ran, in order.
	Tools []string
}

// Score judges o with each scorer (all of them known and implemented:
// Check refused the rest), at ms since the epoch, and returns the
// event_score records and the dataset_run: fail if any scorer failed,
// no_scores when there were none, else pass.
func Score(scorers []manifest.Scorer, o Observation, ms uint64, datasetID, caseID *string) ([]EventScore, DatasetRun) {
	run := DatasetRun{TS: ms, DatasetID: datasetID, CaseID: caseID, Overall: NoScores, Scores: map[string]float64{}}
	var events []EventScore
	for _, s := range scorers {
		pass, reason := judge(s, o)
		e := EventScore{TS: ms, Turn: o.Turns, EventType: sessionEnd, Scorer: s.Name, Result: Fail, Reason: &reason}
		score := 0.0
		if pass {
			e.Result, score = Pass, 1
		}
		e.Score = &score
		events = append(events, e)
		run.Scores[s.Name] = score
		if run.Overall != Fail {
			run.Overall = e.Result
		}
	}
	return events, run
}

// judge is one scorer's verdict and its reason.
func judge(s manifest.Scorer, o Observation) (bool, string) {
	switch s.Type {
	case ScorerExitOK:
		return o.ExitStatus == "ok", "exit_status=" + o.ExitStatus
	case ScorerMaxTurns:
		return uint64(o.Turns) <= s.Max, fmt.Sprintf("turns=%d max=%d", o.Turns, s.Max)
	case ScorerMaxTokens:
		total := o.InputTokens + o.OutputTokens
		return total <= s.Max, fmt.Sprintf("tokens=%d max=%d", total, s.Max)
	case ScorerToolSequence:
		return subsequence(s.Expected, o.Tools), fmt.Sprintf("expected=[%s] observed=[%s]",
			strings.Join(s.Expected, ","), strings.Join(o.Tools, ","))
	}
	// Check refuses every other type before a case runs; one that got
	// here anyway fails rather than pass unjudged.
	return false, "not implemented in mur-go: scorer type " + s.Type
}

// subsequence reports whether want appears in got in order, gaps
// allowed.
func subsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}
