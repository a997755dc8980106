package host

import (
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/tools"
)

// Instance names of the interfaces this package registers (wit.md §2.2).
const (
	InstanceInvoke   = "murmur:tool-registry/invoke@0.1.0"
	InstanceManage   = "murmur:artifact-manager/manage@0.1.0"
	InstanceMessage  = "murmur:message/send@0.1.0"
	InstanceChunks   = "murmur:text/chunks@0.1.0"
	InstanceTask     = "murmur:task/task@0.1.0"
	InstanceCapsule  = "murmur:capsule/run@0.1.0"
	CapsuleRunExport = InstanceCapsule + "#run"
)

// RuntimeType is artifact-manager's runtime-type enum.
type RuntimeType uint8

// RuntimeType cases in canonical-ABI order.
const (
	RuntimeWasm RuntimeType = iota
	RuntimeNative
)

// ArtifactSummary is artifact-manager's artifact-summary record.
type ArtifactSummary struct {
	Name    string
	Version string
	Runtime RuntimeType
}

// ArtifactInfo is artifact-manager's artifact-info record. The schemas are
// compact JSON text.
type ArtifactInfo struct {
	Name         string
	Version      string
	Description  string
	Tags         []string
	Runtime      RuntimeType
	InputSchema  *string
	OutputSchema *string
}

// RuntimeState is artifact-manager's runtime-state record.
type RuntimeState struct {
	CapsuleID    string
	Installed    []ArtifactSummary
	Capabilities string
}

// witTypes holds the WIT types and function types of every Murmur interface
// this package registers. They are built once per Register call, never
// shared through package state.
type witTypes struct {
	runtimeType          *wit.Enum
	summary, info, state *wit.Record
	message, taskResult  *wit.Record

	invoke         *wit.Func
	chunk          *wit.Func
	requestInput   *wit.Func
	list, describe *wit.Func
	search, pull   *wit.Func
	remove, diag   *wit.Func
	send           *wit.Func
}

func newTypes() *witTypes {
	optStr := &wit.Option{Elem: wit.String}
	strList := &wit.List{Elem: wit.String}
	tool := tools.NewContractTypes()
	t := &witTypes{}
	t.invoke = &wit.Func{
		Params: []wit.Param{{Name: "name", Type: wit.String}, {Name: "input", Type: tool.Input}},
		Result: &wit.Result{OK: tool.Result010, Err: wit.String},
	}

	t.chunk = &wit.Func{Params: []wit.Param{{Name: "chunk", Type: wit.String}}}
	t.requestInput = &wit.Func{Params: []wit.Param{{Name: "prompt", Type: wit.String}}, Result: wit.String}

	t.runtimeType = &wit.Enum{Named: wit.Named{Name: "runtime-type"}, Cases: []string{"wasm", "native"}}
	t.summary = &wit.Record{Named: wit.Named{Name: "artifact-summary"}, Fields: []wit.Field{
		{Name: "name", Type: wit.String},
		{Name: "version", Type: wit.String},
		{Name: "runtime", Type: t.runtimeType},
	}}
	t.info = &wit.Record{Named: wit.Named{Name: "artifact-info"}, Fields: []wit.Field{
		{Name: "name", Type: wit.String},
		{Name: "version", Type: wit.String},
		{Name: "description", Type: wit.String},
		{Name: "tags", Type: strList},
		{Name: "runtime", Type: t.runtimeType},
		{Name: "input-schema", Type: optStr},
		{Name: "output-schema", Type: optStr},
	}}
	summaries := &wit.List{Elem: t.summary}
	t.state = &wit.Record{Named: wit.Named{Name: "runtime-state"}, Fields: []wit.Field{
		{Name: "capsule-id", Type: wit.String},
		{Name: "installed", Type: summaries},
		{Name: "capabilities", Type: wit.String},
	}}
	name := []wit.Param{{Name: "name", Type: wit.String}}
	t.list = &wit.Func{Result: summaries}
	t.describe = &wit.Func{Params: name, Result: &wit.Result{OK: t.info, Err: wit.String}}
	t.search = &wit.Func{Params: []wit.Param{{Name: "query", Type: wit.String}}, Result: &wit.Result{OK: summaries, Err: wit.String}}
	t.pull = &wit.Func{
		Params: []wit.Param{{Name: "name", Type: wit.String}, {Name: "version", Type: wit.String}},
		Result: &wit.Result{OK: t.summary, Err: wit.String},
	}
	t.remove = &wit.Func{Params: name, Result: &wit.Result{OK: wit.Bool, Err: wit.String}}
	t.diag = &wit.Func{Result: &wit.Result{OK: t.state, Err: wit.String}}

	t.message = &wit.Record{Named: wit.Named{Name: "message"}, Fields: []wit.Field{
		{Name: "message-id", Type: wit.String},
		{Name: "context-id", Type: optStr},
		{Name: "text", Type: wit.String},
	}}
	t.taskResult = &wit.Record{Named: wit.Named{Name: "task-result"}, Fields: []wit.Field{
		{Name: "task-id", Type: wit.String},
		{Name: "context-id", Type: wit.String},
		{Name: "state", Type: wit.String},
	}}
	t.send = &wit.Func{
		Params: []wit.Param{{Name: "peer-url", Type: wit.String}, {Name: "message", Type: t.message}},
		Result: &wit.Result{OK: t.taskResult, Err: wit.String},
	}
	return t
}
