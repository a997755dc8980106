package tools

import "github.com/mur-go/mur/engine/wit"

// This file converts a tool-result into the dynamic value of package wit,
// for host functions that hand one on: its shape depends on the contract
// version, so it cannot go through the typed host-function mapping.

func optValue(s *string) wit.OptionValue {
	if s == nil {
		return wit.None()
	}
	return wit.Some(*s)
}

// Value is the tool-result record value in contract c's shape, for a host
// function that hands a result on (tool-registry/invoke).
func (r ToolResult) Value(c ToolContract) []any {
	meta := make([]any, len(r.Metadata))
	for i, p := range r.Metadata {
		meta[i] = []any{p.Key, p.Value}
	}
	v := []any{uint32(r.Status), optValue(r.Summary), optValue(r.Data), optValue(r.DataPath), r.Truncated, meta}
	if c == ToolRun020 {
		att := make([]any, len(r.Attachments))
		for i, a := range r.Attachments {
			att[i] = []any{a.MediaType, a.Path}
		}
		v = append(v, att)
	}
	return v
}
