package eval

import (
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// Check refuses, before any case runs, a capsule mur eval run cannot
// score: one that is not an agent, one whose session never ends, one
// with no scorer, a scorer mur-go does not have, or two scorers of one
// name (their scores would share one key).
func Check(f *manifest.File) error {
	c := f.Capsule
	at := diag.Pos{File: f.Path}
	if !c.IsAgent() {
		return diag.New(CodeNotImplemented, "not implemented: mur eval run of a script capsule (%s has no inference: block); it runs an agent capsule once per case", f.Path).
			WithHint("score a script capsule's runs from their own output; mur eval run needs an inference: block").At(at)
	}
	if lc := c.Lifecycle; lc.TaskAcceptance == "queue" && lc.AfterTask == "sleep" {
		return diag.New(CodeInvalid, "lifecycle task_acceptance: queue with after_task: sleep never ends a session, so mur eval run could not finish a case").
			WithHint("use after_task: exit (the default) for the capsule you evaluate").At(at)
	}
	if c.Eval == nil || len(c.Eval.Scorers) == 0 {
		return diag.New(CodeMissing, "observability.eval.scorers declares no scorer: mur eval run would have nothing to score").
			WithHint("add one, e.g.\n    observability:\n      eval:\n        scorers:\n          - type: exit_ok\n            name: success_check").At(at)
	}
	seen := map[string]bool{}
	for _, s := range c.Eval.Scorers {
		if s.Type == ScorerLLMJudge {
			return diag.New(CodeNotImplemented, "not implemented: scorer type llm_judge (scorer '%s'); Murmur parses it and scores nothing", s.Name).
				WithHint("remove it, or judge with exit_ok, max_turns, max_tokens or tool_sequence").At(at)
		}
		if seen[s.Name] {
			return diag.New(CodeInvalid, "two scorers in observability.eval.scorers are named '%s': each score is recorded under its scorer's name", s.Name).
				WithHint("give each scorer a name: of its own").At(at)
		}
		seen[s.Name] = true
	}
	return nil
}
