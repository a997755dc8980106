package traceview

// Step is one turn as `mur trace steps` shows it: the decision, the tool
// it called (None when none), the duration of the turn's first tool or
// skill call (None when none) and the first string of the turn's first
// tool input that has one ("" when none).
type Step struct {
	Turn     uint32
	Decision string
	Tool     string
	Duration string
	Input    string
}

// Steps is a session turn by turn: one step per inference record.
type Steps struct {
	// SessionID is the last session_start's, "" when there is none.
	SessionID string
	Steps     []Step
}

// Steps is t turn by turn. A trace with no event at all is CodeTrace; one
// without session_start or session_end is shown as far as it goes.
func (t *Trace) Steps() (*Steps, error) {
	if t.Events == 0 {
		return nil, emptyError(t.Path)
	}
	out := &Steps{}
	if t.Start != nil {
		out.SessionID = t.Start.SessionID
	}
	inputs := map[uint32]string{}
	for _, c := range t.ToolCalls {
		if _, ok := inputs[c.Turn]; !ok && c.Summary != "" {
			inputs[c.Turn] = c.Summary
		}
	}
	for _, inf := range t.Inferences {
		s := Step{Turn: inf.Turn, Decision: inf.Decision, Tool: None, Duration: None, Input: inputs[inf.Turn]}
		if inf.HasTool {
			s.Tool = inf.Tool
		}
		if ms, ok := t.firstCall[inf.Turn]; ok {
			s.Duration = Duration(ms)
		}
		out.Steps = append(out.Steps, s)
	}
	return out, nil
}
