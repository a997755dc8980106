package cli

import (
	"os"
	"runtime/debug"
	"sync"
)

// startupHeapLimit bounds the heap while "mur run" starts with the
// collector off (relaxStartupGC): past it the collector runs as usual.
// A warm start allocates ~40 MB in all; a cold one, compiling, more.
const startupHeapLimit = 96 << 20

// relaxStartupGC turns the garbage collector off until the returned
// function runs (an agent capsule's URL printed, a script capsule
// staged, or the run's end), bounded by startupHeapLimit. Staging and compiling a
// capsule allocate tens of MB of which little survives, and a served
// capsule collects it all anyway once it is bound (releaseMemory in
// internal/session forces a collection before the URL is announced):
// collecting before that is work thrown away, ~10% of a warm start's
// CPU with its write barriers. The process's GOGC or GOMEMLIMIT, when
// set, are the operator's and are left alone. The returned function puts
// the collector back as it was; calling it again does nothing.
func relaxStartupGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(startupHeapLimit)
	percent := debug.SetGCPercent(-1)
	return sync.OnceFunc(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}
