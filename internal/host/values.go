package host

import (
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/remote/a2a"
)

// The result<...> returns of the capsule interfaces need these: typed host
// functions pass wit.ResultValue payloads through unconverted.

func optValue(s *string) wit.OptionValue {
	if s == nil {
		return wit.None()
	}
	return wit.Some(*s)
}

func (s ArtifactSummary) value() []any {
	return []any{s.Name, s.Version, uint32(s.Runtime)}
}

func summariesValue(ss []ArtifactSummary) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s.value()
	}
	return out
}

func (a ArtifactInfo) value() []any {
	tags := make([]any, len(a.Tags))
	for i, t := range a.Tags {
		tags[i] = t
	}
	return []any{a.Name, a.Version, a.Description, tags, uint32(a.Runtime), optValue(a.InputSchema), optValue(a.OutputSchema)}
}

func (s RuntimeState) value() []any {
	return []any{s.CapsuleID, summariesValue(s.Installed), s.Capabilities}
}

func taskResultValue(r a2a.TaskResult) []any {
	return []any{r.TaskID, r.ContextID, r.State}
}

// errResult is result::err(msg).
func errResult(err error) wit.ResultValue { return wit.Err(err.Error()) }
