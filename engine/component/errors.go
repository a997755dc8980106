package component

import (
	"errors"
	"fmt"
	"time"

	"github.com/mur-go/mur/engine/component/internal/validate"
)

// DeadlineError reports a call stopped at its wall-clock deadline. The
// store is poisoned afterwards.
type DeadlineError struct {
	// Func is the export being called, "instance#func" or "func".
	Func     string
	Deadline time.Duration
}

func (e *DeadlineError) Error() string {
	if e.Deadline == 0 {
		// The caller's context carried the deadline, not the store.
		return fmt.Sprintf("%s exceeded its execution deadline and was interrupted", e.Func)
	}
	return fmt.Sprintf("%s exceeded its %s execution deadline and was interrupted", e.Func, FormatSeconds(e.Deadline))
}

// FormatSeconds prints whole seconds as "1s" and fractions as "0.5s", the
// wording Murmur uses for deadlines. It lives here, the lowest package that
// words a deadline, so the runtime's messages read the same.
func FormatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

// LimitError reports growth past a store limit (memory, table elements,
// instances, resource handles, host memory of a lift). It is distinct from
// an ordinary trap.
type LimitError struct {
	// Limit is one of the Limit* constants, or another short name of what
	// was limited.
	Limit string
	// Desired is what the guest asked for; Max is the limit.
	Desired, Max uint64
	// Func is the export being called, if the limit was hit in a call.
	Func string
	// Err is what the guest did when its growth was refused.
	Err error
}

// The limits a LimitError can name.
const (
	LimitMemory        = "memory"
	LimitTableElements = "table elements"
	LimitInstances     = "instances"
	LimitHandles       = "resource handles"
	// LimitLiftedBytes is the host memory one lift may allocate: Desired
	// is what the lift had allocated when it stopped.
	LimitLiftedBytes = "lifted bytes"
)

func (e *LimitError) Error() string {
	var msg string
	switch e.Limit {
	case LimitMemory:
		msg = fmt.Sprintf("linear memory growth to %d bytes exceeds the memory limit (%d bytes)", e.Desired, e.Max)
	case LimitTableElements:
		msg = fmt.Sprintf("table growth to %d elements exceeds the table element limit (%d)", e.Desired, e.Max)
	case LimitLiftedBytes:
		msg = fmt.Sprintf("a value the guest passed to the host needs more than %d bytes of host memory, over the %d-byte limit for one value (the store's memory limit)", e.Desired, e.Max)
	default:
		msg = fmt.Sprintf("%d %s exceed the %s limit (%d)", e.Desired, e.Limit, e.Limit, e.Max)
	}
	msg = "resource limit exceeded: " + msg
	if e.Func != "" {
		msg += " in " + e.Func
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *LimitError) Unwrap() error { return e.Err }

// TrapError reports a guest trap (unreachable, out-of-bounds access, a
// canonical ABI violation, ...). The instance that trapped is poisoned.
type TrapError struct {
	// Func is the export being called, "instance#func" or "func".
	Func string
	Err  error
}

func (e *TrapError) Error() string {
	return fmt.Sprintf("guest trapped in %s: %v", e.Func, e.Err)
}

func (e *TrapError) Unwrap() error { return e.Err }

// LinkError reports an import the linker cannot satisfy or an export that
// is missing or has the wrong type.
type LinkError struct {
	// Name is the instance and function involved, e.g.
	// "murmur:tool/run@0.2.0#run".
	Name string
	Msg  string
}

func (e *LinkError) Error() string { return e.Name + ": " + e.Msg }

// ErrPoisoned is returned (wrapped) by calls into an instance that trapped
// or was stopped at a deadline earlier.
var ErrPoisoned = errors.New("instance is unusable after an earlier trap; instantiate it again")

// ValidationError reports a component the component model's validation
// rules reject. Rule names the rule ("names.label", "canon.memory", ...;
// see the engine's internal/validate and internal/plan) so callers and
// tests can branch on it; Offset is the byte offset in the top-level
// binary of the definition that breaks it.
type ValidationError struct {
	Rule   string
	Offset int
	Msg    string
}

func (e *ValidationError) Error() string { return (*validate.Error)(e).Error() }

// public returns err as the *ValidationError it stands for when it is a
// rule the internal packages found broken, and err itself otherwise.
func public(err error) error {
	if re, ok := err.(*validate.Error); ok {
		return (*ValidationError)(re)
	}
	return err
}
