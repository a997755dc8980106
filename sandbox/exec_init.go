package sandbox

import "os"

// init starts the trampoline in any binary that links this package (the
// mur binary, the tests) when it is started in ExecMode. It runs here and
// not in main because Go initialises packages in dependency order: by
// this point only sandbox's own few dependencies have been initialised,
// not the hundreds of packages of the rest of mur (engine, A2A and gRPC
// stacks, CLI) whose start-up a re-exec that only sets limits and execs
// the tool would pay on every spawn. Main never returns.
func init() {
	if len(os.Args) > 1 && os.Args[1] == ExecMode {
		Main(os.Args[2:])
	}
}
