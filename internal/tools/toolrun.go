package tools

import (
	"context"

	"github.com/mur-go/mur/engine/component"
)

// The run call on the typed path: tool-input is lowered straight from a
// ToolInput and tool-result lifted straight into the Go structs below by
// codecs compiled once per tool (component.TypedExport), with the same
// checks and lift budget as the dynamic values of package wit.

// result010 and result020 are tool-result as the two contract versions
// lay it out; ToolResult holds either plus what is not part of the value.
type (
	result010 struct {
		Status    Status
		Summary   *string
		Data      *string
		DataPath  *string
		Truncated bool
		Metadata  []Pair
	}
	result020 struct {
		Status      Status
		Summary     *string
		Data        *string
		DataPath    *string
		Truncated   bool
		Metadata    []Pair
		Attachments []Attachment
	}
)

// runner calls a tool's run export on one of its instances.
type runner interface {
	run(ctx context.Context, inst *component.Instance, in ToolInput) (ToolResult, error)
}

// newRunner compiles the run call of contract c, which comp exports with
// c's type (resolveToolExport checked it).
func newRunner(comp *component.Component, c ToolContract) (runner, error) {
	if c == ToolRun020 {
		return newTypedRun(comp, c, func(r *result020) ToolResult {
			return ToolResult{Status: r.Status, Summary: r.Summary, Data: r.Data, DataPath: r.DataPath,
				Truncated: r.Truncated, Metadata: nilIfEmpty(r.Metadata), Attachments: nilIfEmpty(r.Attachments)}
		})
	}
	return newTypedRun(comp, c, func(r *result010) ToolResult {
		return ToolResult{Status: r.Status, Summary: r.Summary, Data: r.Data, DataPath: r.DataPath,
			Truncated: r.Truncated, Metadata: nilIfEmpty(r.Metadata)}
	})
}

// typedRun is the runner of one contract version, R its tool-result.
type typedRun[R any] struct {
	export *component.TypedExport[ToolInput, R]
	result func(*R) ToolResult
}

func newTypedRun[R any](comp *component.Component, c ToolContract, result func(*R) ToolResult) (runner, error) {
	e, err := component.NewTypedExport[ToolInput, R](comp, c.Export())
	if err != nil {
		return nil, err
	}
	return &typedRun[R]{export: e, result: result}, nil
}

func (t *typedRun[R]) run(ctx context.Context, inst *component.Instance, in ToolInput) (ToolResult, error) {
	r, err := t.export.Call(ctx, inst, in)
	if err != nil {
		return ToolResult{}, err
	}
	return t.result(&r), nil
}

// nilIfEmpty keeps an empty list nil, as ToolResult has always held it.
func nilIfEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}
