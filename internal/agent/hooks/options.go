package hooks

import (
	"time"

	"github.com/mur-go/mur/internal/agent/inference"
	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// Defaults of the async machinery (wit.md §6.8).
const (
	DefaultQueueDepth  = 1024
	DefaultDrainBudget = 15 * time.Second
)

// Options configure a session's hook runtime.
type Options struct {
	// Staged is the staged capsule as the hooks see it: its hook
	// artifacts (manifest order), their grants and limits, and the
	// workdirs.
	Staged stage.HookView
	// Driver is the capsule's inference driver, the very tool the loop
	// calls; nil makes every run-inference call fail with the spec's "not
	// configured" error. DriverName names it in errors.
	Driver     tools.Tool
	DriverName string
	// CompactionDriver is the driver built with
	// inference.compaction.driver_config laid over its config, used for
	// calls made while serving on-compaction; nil uses Driver.
	CompactionDriver tools.Tool
	// CompactionMaxTokens is the output cap of calls made while serving
	// on-compaction; 0 takes the session manifest's
	// inference.compaction.max_tokens, and without it DefaultMaxTokens.
	CompactionMaxTokens uint32
	// CountTokens counts tokens the way the loop does (cl100k); nil
	// estimates bytes/4, the spec's fallback.
	CountTokens func(string) uint64
	// Retry is run-inference's retry policy, the loop's own
	// (inference.retry): a transient failure is sent again after its
	// backoff, a malformed answer never; the zero Policy never retries.
	Retry inference.Policy
	// Meter is the session's spend meter, shared with the loop, so a
	// hook's completions count against inference.max_session_tokens; nil
	// is no ceiling.
	Meter *inference.Meter
	// GuestIO is the session's, as the capsule's other guests have it:
	// Getenv is read for the MURMUR_* variables hooks are given (wit.md
	// §6.7) and nothing else, Stdout and Stderr receive the hooks' output.
	launch.GuestIO
	// Home is where checkpoint keys live (.murmur/checkpoint-keys under
	// it); "" resolves HOME, then USERPROFILE, through Getenv.
	Home string
	// QueueDepth and DrainBudget bound async hooks; zero means the
	// defaults (1024, 15 s).
	QueueDepth  int
	DrainBudget time.Duration
	// Observer, if set, sees each lifecycle call start and end
	// (observe.HookStart, HookEnd), from the loop's goroutine for a
	// blocking hook and from the worker's for an async one: give it the
	// loop's observer wrapped in observe.Serial.
	Observer observe.Observer
}

// withDefaults is o with its GuestIO (launch.GuestIO.WithDefaults), the
// async bounds and the run-inference settings filled in.
func (o Options) withDefaults() Options {
	o.GuestIO = o.GuestIO.WithDefaults()
	if o.QueueDepth <= 0 {
		o.QueueDepth = DefaultQueueDepth
	}
	if o.DrainBudget <= 0 {
		o.DrainBudget = DefaultDrainBudget
	}
	if o.CountTokens == nil {
		o.CountTokens = func(s string) uint64 { return uint64(len(s) / 4) }
	}
	if o.CompactionMaxTokens == 0 && o.Staged.Capsule != nil {
		if inf := o.Staged.Capsule.Inference; inf != nil && inf.Compaction != nil && inf.Compaction.MaxTokens != nil {
			o.CompactionMaxTokens = *inf.Compaction.MaxTokens
		}
	}
	if o.CompactionDriver == nil {
		o.CompactionDriver = o.Driver
	}
	return o
}
