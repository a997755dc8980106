package traceview

import (
	"cmp"
	"slices"

	"github.com/mur-go/mur/internal/base/diag"
)

// Summary is one session as `mur trace show` and the report read it: the
// last session_start and session_end (whose totals are the run's), and
// what the other records add up to.
type Summary struct {
	*Trace
	Start Start
	End   End

	ToolOK, ToolError   uint32
	SkillOK, SkillError uint32
	// ShellExits counts shell commands by exit code.
	ShellExits map[int32]uint32
}

// Summary checks that t is a whole session (events, a session_start and
// a session_end; CodeTrace otherwise) and adds up its records.
func (t *Trace) Summary() (*Summary, error) {
	switch {
	case t.Events == 0:
		return nil, emptyError(t.Path)
	case t.Start == nil:
		return nil, diag.New(CodeTrace, "%s: no session_start event found", t.Path)
	case t.End == nil:
		return nil, diag.New(CodeTrace, "%s: no session_end event found", t.Path)
	}
	s := &Summary{Trace: t, Start: *t.Start, End: *t.End, ShellExits: map[int32]uint32{}}
	for _, c := range t.ToolCalls {
		if c.OK() {
			s.ToolOK++
		} else {
			s.ToolError++
		}
	}
	for _, c := range t.SkillCalls {
		if c.OK() {
			s.SkillOK++
		} else {
			s.SkillError++
		}
	}
	for _, sh := range t.Shells {
		s.ShellExits[sh.ExitCode]++
	}
	return s, nil
}

func emptyError(path string) error {
	return diag.New(CodeTrace, "%s: trace file is empty (incomplete or zero-event session)", path)
}

// ratio is n/d and whether d is not zero.
func ratio(n, d float64) (float64, bool) {
	if d == 0 {
		return 0, false
	}
	return n / d, true
}

func mean[T any](xs []T, f func(T) uint64) (float64, bool) {
	var sum float64
	for _, x := range xs {
		sum += float64(f(x))
	}
	return ratio(sum, float64(len(xs)))
}

// ToolSuccessRate is the percentage of tool calls that succeeded, out of
// session_end's count; false when it counts none.
func (s *Summary) ToolSuccessRate() (float64, bool) {
	r, ok := ratio(float64(s.ToolOK), float64(s.End.ToolCalls))
	return 100 * r, ok
}

// AvgToolLatency is the tool calls' mean duration in milliseconds.
func (s *Summary) AvgToolLatency() (float64, bool) {
	return mean(s.ToolCalls, func(c ToolCall) uint64 { return c.DurationMS })
}

// SkillCallCount is the number of skill calls.
func (s *Summary) SkillCallCount() uint32 { return s.SkillOK + s.SkillError }

// SkillSuccessRate is the percentage of skill calls that succeeded.
func (s *Summary) SkillSuccessRate() (float64, bool) {
	r, ok := ratio(float64(s.SkillOK), float64(s.SkillCallCount()))
	return 100 * r, ok
}

// AvgSkillLatency is the skill calls' mean duration in milliseconds.
func (s *Summary) AvgSkillLatency() (float64, bool) {
	return mean(s.SkillCalls, func(c SkillCall) uint64 { return c.DurationMS })
}

// AvgShellLatency is the shell commands' mean duration in milliseconds.
func (s *Summary) AvgShellLatency() (float64, bool) {
	return mean(s.Shells, func(c Shell) uint64 { return c.DurationMS })
}

// AvgInputPerTurn is the input tokens per turn.
func (s *Summary) AvgInputPerTurn() (float64, bool) {
	return ratio(float64(s.End.InputTokens), float64(s.End.Turns))
}

// AvgOutputPerTurn is the output tokens per turn.
func (s *Summary) AvgOutputPerTurn() (float64, bool) {
	return ratio(float64(s.End.OutputTokens), float64(s.End.Turns))
}

// Turn is one turn of `mur trace show`'s tool calls: the turn's calls in
// order, or, for a turn that called none, its decision.
type Turn struct {
	Turn     uint32
	Calls    []ToolCall
	Decision string
}

// Turns are the turns that called a tool or made a decision, in turn
// order. A turn with several inference records shows the last decision.
func (s *Summary) Turns() []Turn {
	by := map[uint32]*Turn{}
	get := func(n uint32) *Turn {
		if by[n] == nil {
			by[n] = &Turn{Turn: n}
		}
		return by[n]
	}
	for _, c := range s.ToolCalls {
		t := get(c.Turn)
		t.Calls = append(t.Calls, c)
	}
	for _, inf := range s.Inferences {
		get(inf.Turn).Decision = inf.Decision
	}
	out := make([]Turn, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b Turn) int { return cmp.Compare(a.Turn, b.Turn) })
	return out
}

// SkillTurn is one turn's skill calls.
type SkillTurn struct {
	Turn  uint32
	Calls []SkillCall
}

// SkillTurns are the skill calls by turn, in turn order.
func (s *Summary) SkillTurns() []SkillTurn {
	by := map[uint32][]SkillCall{}
	for _, c := range s.SkillCalls {
		by[c.Turn] = append(by[c.Turn], c)
	}
	out := make([]SkillTurn, 0, len(by))
	for n, calls := range by {
		out = append(out, SkillTurn{Turn: n, Calls: calls})
	}
	slices.SortFunc(out, func(a, b SkillTurn) int { return cmp.Compare(a.Turn, b.Turn) })
	return out
}
