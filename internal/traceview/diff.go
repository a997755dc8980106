package traceview

import (
	"fmt"
	"math"
	"strconv"
)

// DiffRow is one metric of two sessions: its value in each and the
// change from A to B, with which run it favours.
type DiffRow struct {
	Metric, A, B, Delta string
}

// Diff compares session a (before) with session b (after), metric by
// metric, as `mur trace diff` shows them. Fewer turns, tokens, calls and
// less time are better; a higher tool success rate is.
func Diff(a, b *Summary) []DiffRow {
	rows := []DiffRow{
		{"turns", u(a.End.Turns), u(b.End.Turns), deltaCount(uint64(a.End.Turns), uint64(b.End.Turns), true)},
		{"duration", Duration(a.End.DurationMS), Duration(b.End.DurationMS), deltaMS(a.End.DurationMS, b.End.DurationMS)},
		{"input tokens", Thousands(a.End.InputTokens), Thousands(b.End.InputTokens), deltaCount(a.End.InputTokens, b.End.InputTokens, true)},
		{"output tokens", Thousands(a.End.OutputTokens), Thousands(b.End.OutputTokens), deltaCount(a.End.OutputTokens, b.End.OutputTokens, true)},
	}
	ai, _ := a.AvgInputPerTurn()
	bi, _ := b.AvgInputPerTurn()
	ao, _ := a.AvgOutputPerTurn()
	bo, _ := b.AvgOutputPerTurn()
	rows = append(rows,
		DiffRow{"input/turn (avg)", fmt.Sprintf("%.0f", ai), fmt.Sprintf("%.0f", bi), deltaFloat(ai, bi, true)},
		DiffRow{"output/turn (avg)", fmt.Sprintf("%.0f", ao), fmt.Sprintf("%.0f", bo), deltaFloat(ao, bo, true)},
		DiffRow{"tool calls", u(a.End.ToolCalls), u(b.End.ToolCalls), deltaCount(uint64(a.End.ToolCalls), uint64(b.End.ToolCalls), true)},
	)
	ar, aok := a.ToolSuccessRate()
	br, bok := b.ToolSuccessRate()
	rows = append(rows, DiffRow{"tool success rate", percent(ar, aok), percent(br, bok), both(aok, bok, func() string { return deltaFloat(ar, br, false) })})
	rows = append(rows, latencyRow("avg tool latency", a.AvgToolLatency, b.AvgToolLatency))
	rows = append(rows,
		DiffRow{"skill calls", u(a.SkillCallCount()), u(b.SkillCallCount()), deltaCount(uint64(a.SkillCallCount()), uint64(b.SkillCallCount()), true)},
		DiffRow{"shell calls", u(a.End.ShellCalls), u(b.End.ShellCalls), deltaCount(uint64(a.End.ShellCalls), uint64(b.End.ShellCalls), true)},
		latencyRow("avg shell latency", a.AvgShellLatency, b.AvgShellLatency),
		DiffRow{"compaction", compaction(a.Compaction), compaction(b.Compaction), None},
		DiffRow{"exit status", a.End.ExitStatus, b.End.ExitStatus, None},
	)
	return rows
}

func u(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

func percent(v float64, ok bool) string {
	if !ok {
		return None
	}
	return fmt.Sprintf("%.1f%%", v)
}

func compaction(c *Compaction) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprintf("turn %d", c.Turn)
}

func latencyRow(metric string, a, b func() (float64, bool)) DiffRow {
	av, aok := a()
	bv, bok := b()
	return DiffRow{metric, OptDuration(av, aok), OptDuration(bv, bok), both(aok, bok, func() string { return deltaMS(Whole(av), Whole(bv)) })}
}

// both is delta() when both values exist, else None.
func both(aok, bok bool, delta func() string) string {
	if !aok || !bok {
		return None
	}
	return delta()
}

// better names the run a change from a to b favours.
func better(diff float64, lowerIsBetter bool) string {
	if (diff < 0) == lowerIsBetter {
		return " (B better)"
	}
	return " (A better)"
}

// deltaCount is b-a with its sign, "=" when equal.
func deltaCount(a, b uint64, lowerIsBetter bool) string {
	if a == b {
		return "="
	}
	if b > a {
		return fmt.Sprintf("+%d%s", b-a, better(1, lowerIsBetter))
	}
	return fmt.Sprintf("-%d%s", a-b, better(-1, lowerIsBetter))
}

// deltaMS is the change of a duration, as a duration with its sign;
// shorter is better.
func deltaMS(a, b uint64) string {
	switch {
	case a == b:
		return "="
	case b > a:
		return "+" + Duration(b-a) + better(1, true)
	}
	return "-" + Duration(a-b) + better(-1, true)
}

// deltaFloat is b-a to one decimal with its sign, "=" when it rounds to
// nothing.
func deltaFloat(a, b float64, lowerIsBetter bool) string {
	diff := b - a
	if math.Abs(diff) < 0.05 {
		return "="
	}
	return fmt.Sprintf("%+.1f%s", diff, better(diff, lowerIsBetter))
}
