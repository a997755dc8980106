package tools

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mur-go/mur/engine/component"
)

// ToolErrorKind says why a tool call failed, so callers (the agent loop,
// the trace, tests) can branch without matching text.
type ToolErrorKind int

// The kinds of tool failure. The Error text of each is Murmur's wording
// (wit.md §2.1, §5.2, §7.3).
const (
	// ToolNotDeclared: the name is not in the capsule's tool allowlist.
	ToolNotDeclared ToolErrorKind = iota + 1
	// ToolNotAvailable: allowlisted, but nothing of that name was staged.
	ToolNotAvailable
	// ToolMissingExport: the component exports no murmur:tool/run version
	// mur-go binds (or the instance lacks run).
	ToolMissingExport
	// ToolTypeCheck: the run export has the wrong type for its version.
	ToolTypeCheck
	// ToolInstantiate: the fresh store could not be set up or instantiated.
	ToolInstantiate
	// ToolDeadline: the call ran past its deadline and was interrupted.
	ToolDeadline
	// ToolResourceLimit: growth past a configured limit (memory, tables, lifted
	// bytes) or past a per-store cap (resource handles, open files).
	ToolResourceLimit
	// ToolTrapped: any other guest failure.
	ToolTrapped
	// ToolFailed: a native tool or skill could not be run at all (spawn,
	// I/O); the message says what.
	ToolFailed
)

// ToolError is a failed tool call. Error renders the exact string a script
// capsule receives as result::err.
type ToolError struct {
	Tool string
	Kind ToolErrorKind
	// Deadline is the budget that ran out (ToolDeadline).
	Deadline time.Duration
	// Err is the underlying cause, if any.
	Err error
	msg string
}

func (e *ToolError) Error() string { return e.msg }
func (e *ToolError) Unwrap() error { return e.Err }

// ErrNotDeclared returns the allowlist refusal for tool name.
func ErrNotDeclared(name string) *ToolError {
	return &ToolError{Tool: name, Kind: ToolNotDeclared,
		msg: fmt.Sprintf("tool '%s' is not declared in manifest allowlist", name)}
}

// ErrNotAvailable returns the refusal for an allowlisted tool that is not staged.
func ErrNotAvailable(name string) *ToolError {
	return &ToolError{Tool: name, Kind: ToolNotAvailable,
		msg: fmt.Sprintf("tool '%s' is not available in this session", name)}
}

func errMissingExport(name string, c ToolContract) *ToolError {
	return &ToolError{Tool: name, Kind: ToolMissingExport,
		msg: fmt.Sprintf("tool component '%s' missing export %s; rebuild the artifact against the versioned WIT (run `mur install` for a default artifact, or rebuild from source otherwise)", name, c.Export())}
}

func errTypeCheck(name string, err error) *ToolError {
	return &ToolError{Tool: name, Kind: ToolTypeCheck, Err: err,
		msg: fmt.Sprintf("failed to type-check tool '%s' run export: %v", name, err)}
}

func errInstantiate(name string, err error) *ToolError {
	return &ToolError{Tool: name, Kind: ToolInstantiate, Err: err,
		msg: fmt.Sprintf("failed to instantiate tool '%s': %v", name, err)}
}

func errDeadline(name string, d time.Duration, err error) *ToolError {
	return &ToolError{Tool: name, Kind: ToolDeadline, Deadline: d, Err: err,
		msg: fmt.Sprintf("tool '%s' exceeded its %s execution deadline (capabilities.limits.deadline_seconds) and was interrupted", name, component.FormatSeconds(d))}
}

func errFailed(name, msg string, err error) *ToolError {
	return &ToolError{Tool: name, Kind: ToolFailed, Err: err, msg: msg}
}

// classifyWasm maps an engine error from instantiating or calling a tool to
// Murmur's classes: a refused growth first, then the deadline, else a trap
// (or, before the guest ran, an instantiation failure).
func classifyWasm(name string, limits component.Limits, err error, instantiating bool) *ToolError {
	var (
		lim  *component.LimitError
		dl   *component.DeadlineError
		trap *component.TrapError
	)
	switch {
	case errors.As(err, &lim) && lim.Limit != component.LimitInstances:
		_, detail := LimitDetail(lim)
		return &ToolError{Tool: name, Kind: ToolResourceLimit, Err: err,
			msg: fmt.Sprintf("tool '%s' exceeded its configured resource limits: %s", name, detail)}
	case errors.As(err, &dl):
		d := dl.Deadline
		if d == 0 {
			d = limits.Deadline
		}
		return errDeadline(name, d, err)
	case instantiating:
		return errInstantiate(name, err)
	case errors.As(err, &trap):
		return &ToolError{Tool: name, Kind: ToolTrapped, Err: err,
			msg: fmt.Sprintf("tool '%s' trapped: %s", name, trapText(trap.Err))}
	}
	return &ToolError{Tool: name, Kind: ToolTrapped, Err: err,
		msg: fmt.Sprintf("tool '%s' trapped: %s", name, trapText(err))}
}

// trapText is the cause of a trap without the engine's stack trace, so a
// host error a guest tripped over (request-input's, say) reads as itself.
func trapText(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "\n"); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSuffix(msg, " (recovered by wazero)")
}
