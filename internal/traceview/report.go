package traceview

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// Report is many sessions at once, as `mur trace report` shows them.
type Report struct {
	// Sessions are the whole sessions, in the order given.
	Sessions []*Summary
	// Skipped counts the traces left out as empty or incomplete (any
	// CodeTrace: a live workdir holds sessions still running).
	Skipped int
	// Stats are each metric's mean, standard deviation, minimum and
	// maximum over the sessions.
	Stats []StatRow
	// Exits are the sessions by exit status, in status order.
	Exits []ExitShare
	// TaskStats are the same over the tasks of the sessions that ran
	// more than one, Tasks how many tasks that is; nil and 0 when none.
	TaskStats []StatRow
	Tasks     int
}

// StatRow is one metric over a set of values.
type StatRow struct {
	Metric, Mean, StdDev, Min, Max string
}

// ExitShare is how many sessions ended with one exit status.
type ExitShare struct {
	Status  string
	Count   int
	Percent float64
}

// NewReport loads refs and sums them up. A trace that is not a whole
// session is skipped; any other failure fails the report, and so does a
// set with no whole session (CodeTrace).
func NewReport(refs []Ref) (*Report, error) {
	r := &Report{}
	var tasks []Task
	for _, ref := range refs {
		s, err := Summarize(ref)
		var d *diag.Error
		switch {
		case errors.As(err, &d) && d.Code == CodeTrace:
			r.Skipped++
			continue
		case err != nil:
			return nil, err
		}
		r.Sessions = append(r.Sessions, s)
		if len(s.Tasks) > 1 {
			tasks = append(tasks, s.Tasks...)
		}
	}
	if len(r.Sessions) == 0 {
		return nil, diag.New(CodeTrace, "no complete sessions to report — all traces are empty or incomplete")
	}
	r.Stats = sessionStats(r.Sessions)
	r.Exits = exitShares(r.Sessions)
	if len(tasks) > 0 {
		r.Tasks = len(tasks)
		r.TaskStats = []StatRow{
			stat("task turns", tasks, func(t Task) float64 { return float64(t.Turns) }, oneDecimal),
			stat("task input tokens", tasks, func(t Task) float64 { return float64(t.InputTokens) }, thousands),
			stat("task output tokens", tasks, func(t Task) float64 { return float64(t.OutputTokens) }, thousands),
			stat("task duration (ms)", tasks, func(t Task) float64 { return float64(t.DurationMS) }, thousands),
		}
	}
	return r, nil
}

func sessionStats(ss []*Summary) []StatRow {
	rows := []StatRow{
		stat("turns", ss, func(s *Summary) float64 { return float64(s.End.Turns) }, oneDecimal),
		stat("duration (ms)", ss, func(s *Summary) float64 { return float64(s.End.DurationMS) }, thousands),
		stat("input tokens", ss, func(s *Summary) float64 { return float64(s.End.InputTokens) }, thousands),
		stat("output tokens", ss, func(s *Summary) float64 { return float64(s.End.OutputTokens) }, thousands),
		stat("tool calls", ss, func(s *Summary) float64 { return float64(s.End.ToolCalls) }, oneDecimal),
	}
	var rates []float64
	for _, s := range ss {
		if v, ok := s.ToolSuccessRate(); ok {
			rates = append(rates, v)
		}
	}
	if len(rates) > 0 {
		rows = append(rows, stat("tool success (%)", rates, func(v float64) float64 { return v }, oneDecimal))
	}
	return append(rows,
		stat("shell calls", ss, func(s *Summary) float64 { return float64(s.End.ShellCalls) }, oneDecimal),
		stat("redundant calls", ss, func(s *Summary) float64 { return float64(len(s.Redundant)) }, oneDecimal),
	)
}

func exitShares(ss []*Summary) []ExitShare {
	count := map[string]int{}
	for _, s := range ss {
		count[s.End.ExitStatus]++
	}
	var out []ExitShare
	for status, n := range count {
		out = append(out, ExitShare{Status: status, Count: n, Percent: 100 * float64(n) / float64(len(ss))})
	}
	slices.SortFunc(out, func(a, b ExitShare) int { return strings.Compare(a.Status, b.Status) })
	return out
}

func oneDecimal(v float64) string { return fmt.Sprintf("%.1f", v) }
func thousands(v float64) string  { return Thousands(Whole(v)) }

// stat is the row of metric over xs (never empty): the mean, the
// population standard deviation (0 for one value), the minimum and the
// maximum, each formatted by format.
func stat[T any](metric string, xs []T, value func(T) float64, format func(float64) string) StatRow {
	vs := make([]float64, len(xs))
	var sum float64
	for i, x := range xs {
		vs[i] = value(x)
		sum += vs[i]
	}
	m := sum / float64(len(vs))
	var sd float64
	if len(vs) > 1 {
		var sq float64
		for _, v := range vs {
			sq += (v - m) * (v - m)
		}
		sd = math.Sqrt(sq / float64(len(vs)))
	}
	return StatRow{metric, format(m), format(sd), format(slices.Min(vs)), format(slices.Max(vs))}
}

// statDir reports whether path is a directory.
func statDir(path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}
