package component

import (
	"errors"
	"fmt"
	"time"
)

// DeadlineError reports a call stopped at its wall-clock deadline.
type DeadlineError struct {
	Deadline time.Duration
}

func (e *DeadlineError) Error() string {
	return fmt.Sprintf("guest call exceeded its %s execution deadline", formatSeconds(e.Deadline))
}

// formatSeconds prints whole seconds as "1s" and fractions as "0.5s", the
// wording Murmur uses for deadlines.
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

// LimitError reports growth past a store limit (memory, table elements,
// instances). It is distinct from an ordinary trap.
type LimitError struct {
	// Limit names the limit, e.g. "memory" or "table elements".
	Limit string
	Max   uint64
	Unit  string
	// Func is the export being called, if the limit was hit in a call.
	Func string
	// Err is what the guest did when its growth was refused.
	Err error
}

func (e *LimitError) Error() string {
	msg := fmt.Sprintf("resource limit exceeded: %s limit of %d %s", e.Limit, e.Max, e.Unit)
	if e.Func != "" {
		msg += " reached in " + e.Func
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
