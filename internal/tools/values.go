package tools

import (
	"fmt"

	"github.com/mur-go/mur/engine/wit"
)

// This file converts between the tool contract's Go types and the dynamic
// values of package wit: tool-result's shape depends on the contract
// version, so it cannot go through the typed host-function mapping.

func optValue(s *string) wit.OptionValue {
	if s == nil {
		return wit.None()
	}
	return wit.Some(*s)
}

func optFrom(v any) (*string, error) {
	o, ok := v.(wit.OptionValue)
	if !ok {
		return nil, fmt.Errorf("want option<string>, got %T", v)
	}
	if !o.Some {
		return nil, nil
	}
	s, ok := o.Value.(string)
	if !ok {
		return nil, fmt.Errorf("want string in option, got %T", o.Value)
	}
	return &s, nil
}

// value is the tool-input record value.
func (in ToolInput) value() []any {
	return []any{optValue(in.Data), optValue(in.LogPath)}
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

// toolResultFrom reads a tool-result value of either version.
func toolResultFrom(v any) (ToolResult, error) {
	var r ToolResult
	rec, ok := v.([]any)
	if !ok || (len(rec) != 6 && len(rec) != 7) {
		return r, fmt.Errorf("tool-result: want a 6- or 7-field record, got %T", v)
	}
	st, ok := rec[0].(uint32)
	if !ok || st > uint32(StatusError) {
		return r, fmt.Errorf("tool-result: bad status %v", rec[0])
	}
	r.Status = Status(st)
	var err error
	if r.Summary, err = optFrom(rec[1]); err != nil {
		return r, fmt.Errorf("tool-result summary: %w", err)
	}
	if r.Data, err = optFrom(rec[2]); err != nil {
		return r, fmt.Errorf("tool-result data: %w", err)
	}
	if r.DataPath, err = optFrom(rec[3]); err != nil {
		return r, fmt.Errorf("tool-result data-path: %w", err)
	}
	r.Truncated, _ = rec[4].(bool)
	meta, _ := rec[5].([]any)
	for _, m := range meta {
		kv, _ := m.([]any)
		if len(kv) != 2 {
			return r, fmt.Errorf("tool-result metadata: bad entry %v", m)
		}
		k, _ := kv[0].(string)
		val, _ := kv[1].(string)
		r.Metadata = append(r.Metadata, Pair{Key: k, Value: val})
	}
	if len(rec) == 7 {
		atts, _ := rec[6].([]any)
		for _, a := range atts {
			mp, _ := a.([]any)
			if len(mp) != 2 {
				return r, fmt.Errorf("tool-result attachments: bad entry %v", a)
			}
			mt, _ := mp[0].(string)
			p, _ := mp[1].(string)
			r.Attachments = append(r.Attachments, Attachment{MediaType: mt, Path: p})
		}
	}
	return r, nil
}
