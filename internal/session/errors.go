package session

import "github.com/mur-go/mur/internal/launch"

// Step is the part of the pipeline a run failed in.
type Step string

// The steps of a run, in order.
const (
	// StepLoad: murmur.yaml could not be read, parsed or validated, or it
	// is not a capsule manifest.
	StepLoad Step = "load"
	// StepPrepare: what staging needs is missing (an agent capsule, an
	// unreadable murmur.lock, no capsule component, no engine).
	StepPrepare Step = "prepare"
	// StepStage: staging refused or failed; nothing ran.
	StepStage Step = "stage"
	// StepRun: the capsule ran and failed, trapped or was cancelled.
	StepRun Step = "run"
)

// Error is a failed run: where it failed, how it ended and why. Its text
// is the cause's, unchanged, since the cause already carries Murmur's
// wording and diagnostic code.
type Error struct {
	Step   Step
	Status launch.Status
	Err    error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

func fail(step Step, err error) *Error {
	return &Error{Step: step, Status: launch.StatusOf(err), Err: err}
}
