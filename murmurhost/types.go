package murmurhost

import (
	"fmt"

	"github.com/mur-go/mur/wit"
)

// ToolContract is the exact versioned instance a tool or driver exports.
// Both versions are hosted side by side (spec README decision 1): 0.2.0 adds
// attachments to tool-result, everything else is identical.
type ToolContract string

// The tool contracts mur-go binds, by exact name only.
const (
	ToolRun010 ToolContract = "murmur:tool/run@0.1.0"
	ToolRun020 ToolContract = "murmur:tool/run@0.2.0"
)

// Export is the full export name of the contract's run function.
func (c ToolContract) Export() string { return string(c) + "#run" }

// Instance names of the interfaces this package registers (wit.md §2.2).
const (
	InstanceInvoke    = "murmur:tool-registry/invoke@0.1.0"
	InstanceManage    = "murmur:artifact-manager/manage@0.1.0"
	InstanceMessage   = "murmur:message/send@0.1.0"
	InstanceChunks    = "murmur:text/chunks@0.1.0"
	InstanceTask      = "murmur:task/task@0.1.0"
	InstanceCapsule   = "murmur:capsule/run@0.1.0"
	CapsuleRunExport  = InstanceCapsule + "#run"
	defaultToolExport = ToolRun010
)

// Status is murmur:tool's status enum.
type Status uint8

// Status cases in canonical-ABI order.
const (
	StatusPassed Status = iota
	StatusFailed
	StatusError
)

func (s Status) String() string {
	switch s {
	case StatusPassed:
		return "passed"
	case StatusFailed:
		return "failed"
	case StatusError:
		return "error"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// ToolInput is murmur:tool's tool-input record.
type ToolInput struct {
	Data    *string
	LogPath *string
}

// Pair is one metadata entry, tuple<string, string>.
type Pair struct {
	Key, Value string
}

// Attachment is murmur:tool@0.2.0's attachment record.
type Attachment struct {
	MediaType string
	Path      string
}

// ToolResult is murmur:tool's tool-result in either version: Attachments
// exist only in 0.2.0 and are dropped when a result is handed on as 0.1.0
// (which is what tool-registry/invoke returns).
type ToolResult struct {
	Status      Status
	Summary     *string
	Data        *string
	DataPath    *string
	Truncated   bool
	Metadata    []Pair
	Attachments []Attachment
}

// Str returns a pointer to s, for the option<string> fields.
func Str(s string) *string { return &s }

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

// Message is murmur:message's message record.
type Message struct {
	MessageID string
	ContextID *string
	Text      string
}

// TaskResult is murmur:message's task-result record.
type TaskResult struct {
	TaskID    string
	ContextID string
	State     string
}

// witTypes holds the WIT types and function types of every Murmur interface
// this package registers. They are built once per Register call, never
// shared through package state.
type witTypes struct {
	status, runtimeType          *wit.Enum
	toolInput                    *wit.Record
	toolResult010, toolResult020 *wit.Record
	summary, info, state         *wit.Record
	message, taskResult          *wit.Record

	run010, run020 *wit.Func
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
	pair := &wit.Tuple{Types: []wit.Type{wit.String, wit.String}}
	t := &witTypes{}
	t.status = &wit.Enum{Named: wit.Named{Name: "status"}, Cases: []string{"passed", "failed", "error"}}
	t.toolInput = &wit.Record{Named: wit.Named{Name: "tool-input"}, Fields: []wit.Field{
		{Name: "data", Type: optStr},
		{Name: "log-path", Type: optStr},
	}}
	fields010 := []wit.Field{
		{Name: "status", Type: t.status},
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
	t.toolResult010 = &wit.Record{Named: wit.Named{Name: "tool-result"}, Fields: fields010}
	t.toolResult020 = &wit.Record{Named: wit.Named{Name: "tool-result"}, Fields: append(append([]wit.Field(nil), fields010...),
		wit.Field{Name: "attachments", Type: &wit.List{Elem: attachment}})}
	t.run010 = &wit.Func{Params: []wit.Param{{Name: "input", Type: t.toolInput}}, Result: t.toolResult010}
	t.run020 = &wit.Func{Params: []wit.Param{{Name: "input", Type: t.toolInput}}, Result: t.toolResult020}
	t.invoke = &wit.Func{
		Params: []wit.Param{{Name: "name", Type: wit.String}, {Name: "input", Type: t.toolInput}},
		Result: &wit.Result{OK: t.toolResult010, Err: wit.String},
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

// runFunc is the run function type of contract c.
func (t *witTypes) runFunc(c ToolContract) *wit.Func {
	if c == ToolRun020 {
		return t.run020
	}
	return t.run010
}
