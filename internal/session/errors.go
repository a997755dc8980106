package session

import "errors"

// ErrOption marks a run refused for one of its caller's options (the
// containment floor, the lifecycle overrides, the bind address, a system
// prompt, the task) before anything was staged: `mur run` reports it as
// a bad command line.
var ErrOption = errors.New("a run option it cannot take")

// Step is the part of the pipeline a run failed in (Result.Step).
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
