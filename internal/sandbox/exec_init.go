package sandbox

import "os"

// ReaperMode is the hidden first argument that makes the mur binary a
// session scope's reaper (see reaper). It is not a command a user types.
const ReaperMode = "__mur-scope-reaper"

// init starts the trampoline in any binary that links this package (the
// mur binary, the tests) when it is started in ExecMode, and a scope's
// reaper in ReaperMode. It runs here and not in main because Go
// initialises packages in dependency order: by this point only sandbox's
// own few dependencies have been initialised, not the hundreds of
// packages of the rest of mur (engine, A2A and gRPC stacks, CLI) whose
// start-up a re-exec that only sets limits and execs the tool would pay
// on every spawn. Neither mode returns.
func init() {
	if len(os.Args) < 2 {
		return
	}
	switch os.Args[1] {
	case ExecMode:
		Main(os.Args[2:])
	case ReaperMode:
		reaperMain(os.Args[2:])
	}
}
