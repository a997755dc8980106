package tools

import "github.com/mur-go/mur/engine/wit"

// ContractTypes are the WIT types of murmur:tool's run contract in both
// versions. The WASM runner type-checks exports against them and package
// host declares tool-registry/invoke with them. NewContractTypes builds a
// fresh set per caller: nothing is shared through package state.
type ContractTypes struct {
	Status               *wit.Enum
	Input                *wit.Record
	Result010, Result020 *wit.Record
	Run010, Run020       *wit.Func
}

// NewContractTypes builds the tool contract's types.
func NewContractTypes() *ContractTypes {
	optStr := &wit.Option{Elem: wit.String}
	pair := &wit.Tuple{Types: []wit.Type{wit.String, wit.String}}
	t := &ContractTypes{}
	t.Status = &wit.Enum{Named: wit.Named{Name: "status"}, Cases: []string{"passed", "failed", "error"}}
	t.Input = &wit.Record{Named: wit.Named{Name: "tool-input"}, Fields: []wit.Field{
		{Name: "data", Type: optStr},
		{Name: "log-path", Type: optStr},
	}}
	fields010 := []wit.Field{
		{Name: "status", Type: t.Status},
		{Name: "summary", Type: optStr},
		{Name: "data", Type: optStr},
		{Name: "data-path", Type: optStr},
		{Name: "truncated", Type: wit.Bool},
		{Name: "metadata", Type: &wit.List{Elem: pair}},
	}
	attachment := &wit.Record{Named: wit.Named{Name: "attachment"}, Fields: []wit.Field{
		{Name: "media-type", Type: wit.String},
		{Name: "path", Type: wit.String},
	}}
	t.Result010 = &wit.Record{Named: wit.Named{Name: "tool-result"}, Fields: fields010}
	t.Result020 = &wit.Record{Named: wit.Named{Name: "tool-result"}, Fields: append(append([]wit.Field(nil), fields010...),
		wit.Field{Name: "attachments", Type: &wit.List{Elem: attachment}})}
	t.Run010 = &wit.Func{Params: []wit.Param{{Name: "input", Type: t.Input}}, Result: t.Result010}
	t.Run020 = &wit.Func{Params: []wit.Param{{Name: "input", Type: t.Input}}, Result: t.Result020}
	return t
}

// RunFunc is the run function type of contract c.
func (t *ContractTypes) RunFunc(c ToolContract) *wit.Func {
	if c == ToolRun020 {
		return t.Run020
	}
	return t.Run010
}
