package hooks

import (
	"fmt"
	"strings"

	"github.com/mur-go/mur/engine/wit"
)

// Version is a murmur:hook version this runtime hosts. Both are hosted
// side by side; a hook is bound by the exact instance name it exports.
type Version string

// The lifecycle versions hosted: the seed's 0.2.0 (4-case hook-output, no
// binary in shell-event, 3-field compaction-event) and the repository's
// 0.5.0.
const (
	Lifecycle020 Version = "0.2.0"
	Lifecycle050 Version = "0.5.0"
)

// hostedVersions is the resolution order: newest first.
var hostedVersions = [...]Version{Lifecycle050, Lifecycle020}

const lifecycleIface = "murmur:hook/lifecycle"

// Instance is the exported instance name of v.
func (v Version) Instance() string { return lifecycleIface + "@" + string(v) }

// The lifecycle functions by WIT name.
const (
	fnStage        = "on-stage"
	fnSessionStart = "on-session-start"
	fnTaskStart    = "on-task-start"
	fnInference    = "on-inference"
	fnToolCall     = "on-tool-call"
	fnShell        = "on-shell"
	fnCompaction   = "on-compaction"
	fnTaskEnd      = "on-task-end"
	fnSessionEnd   = "on-session-end"
)

// requiredFns must all be exported (a miss fails the session naming it);
// optionalFns are dispatched only when present (wit.md §6.2).
var (
	requiredFns = [...]string{fnSessionStart, fnInference, fnToolCall, fnShell, fnCompaction, fnSessionEnd}
	optionalFns = [...]string{fnTaskStart, fnTaskEnd}
)

// Hook-output cases in canonical-ABI order (0.2.0 has the first four).
const (
	armNone uint32 = iota
	armReplaceContext
	armWriteManifests
	armArtifact
	armReopenTask
)

var armNames = [...]string{"none", "replace-context", "write-manifests", "artifact", "reopen-task"}

func armName(c uint32) string {
	if int(c) < len(armNames) {
		return armNames[c]
	}
	return fmt.Sprintf("case-%d", c)
}

// contract holds one version's WIT function types, built per runtime so
// nothing is shared through package state.
type contract struct {
	version Version
	funcs   map[string]*wit.Func
}

func newContract(v Version) *contract {
	str, u32, u64 := wit.Type(wit.String), wit.Type(wit.U32), wit.Type(wit.U64)
	optStr := &wit.Option{Elem: wit.String}
	rec := func(name string, fields ...wit.Field) *wit.Record {
		return &wit.Record{Named: wit.Named{Name: name}, Fields: fields}
	}
	f := func(name string, t wit.Type) wit.Field { return wit.Field{Name: name, Type: t} }
	message := rec("message", f("role", str), f("content", str))
	manifest := rec("tool-manifest", f("binary-name", str), f("content", str))
	cases := []wit.Case{
		{Name: "none"},
		{Name: "replace-context", Type: &wit.List{Elem: message}},
		{Name: "write-manifests", Type: &wit.List{Elem: manifest}},
		{Name: "artifact", Type: wit.String},
	}
	if v == Lifecycle050 {
		cases = append(cases, wit.Case{Name: "reopen-task", Type: wit.String})
	}
	output := &wit.Variant{Named: wit.Named{Name: "hook-output"}, Cases: cases}
	result := &wit.Result{OK: output, Err: wit.String}
	shell := []wit.Field{f("turn", u32)}
	if v == Lifecycle050 {
		shell = append(shell, f("binary", str))
	}
	shell = append(shell, f("command", str), f("exit-code", wit.S32), f("stdout", str), f("stderr", str),
		f("stdout-bytes", u64), f("stderr-bytes", u64), f("duration-ms", u64))
	compaction := []wit.Field{f("messages", &wit.List{Elem: message}), f("session-tokens", u64), f("threshold", wit.F64)}
	if v == Lifecycle050 {
		compaction = append(compaction, f("model", optStr), f("system-prompt", optStr))
	}
	params := map[string]wit.Param{
		fnStage:        {Name: "event", Type: rec("stage-event", f("shell-allow", &wit.List{Elem: str}))},
		fnSessionStart: {Name: "ctx", Type: rec("session-context", f("capsule-name", str), f("capsule-version", str), f("session-id", str), f("model", str), f("capabilities", &wit.List{Elem: str}))},
		fnTaskStart:    {Name: "event", Type: rec("task-start-event", f("task-id", str), f("context-id", str), f("source", str), f("input-bytes", u64))},
		fnInference: {Name: "event", Type: rec("inference-event", f("turn", u32), f("input-tokens", u64), f("output-tokens", u64), f("decision", str),
			f("tool-name", optStr), f("prompt", optStr), f("output", optStr), f("tools", optStr))},
		fnToolCall: {Name: "event", Type: rec("tool-event", f("turn", u32), f("tool-name", str), f("input-bytes", u64), f("output-bytes", u64),
			f("duration-ms", u64), f("status", str))},
		fnShell:      {Name: "event", Type: rec("shell-event", shell...)},
		fnCompaction: {Name: "event", Type: rec("compaction-event", compaction...)},
		fnTaskEnd:    {Name: "event", Type: rec("task-end-event", f("task-id", str), f("exit-status", str))},
		fnSessionEnd: {Name: "event", Type: rec("session-end-event", f("total-turns", u32), f("total-input-tokens", u64), f("total-output-tokens", u64),
			f("total-tool-calls", u32), f("total-shell-calls", u32), f("duration-ms", u64), f("exit-status", str))},
	}
	c := &contract{version: v, funcs: make(map[string]*wit.Func, len(params))}
	for name, p := range params {
		c.funcs[name] = &wit.Func{Params: []wit.Param{p}, Result: result}
	}
	return c
}

// honours reports whether arm is committed for event fn (wit.md §6.3).
func honours(fn string, arm uint32) bool {
	switch arm {
	case armNone:
		return true
	case armWriteManifests:
		return fn == fnStage
	case armArtifact:
		return fn == fnInference
	case armReplaceContext:
		return fn == fnCompaction
	case armReopenTask:
		return fn == fnTaskEnd
	}
	return false
}

// hostedList names the instances hosted, for the unknown-version error.
func hostedList() string {
	names := make([]string, len(hostedVersions))
	for i, v := range hostedVersions {
		names[i] = v.Instance()
	}
	return strings.Join(names, " and ")
}
