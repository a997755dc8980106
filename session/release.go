package session

import (
	"log/slog"
	"runtime/debug"
)

// releaseMemory gives back what a capsule waiting for its next task holds
// without needing: the heap its work left free (debug.FreeOSMemory) and
// the executable's read-only pages (releaseBinaryPages). Neither changes
// what the capsule does; a failure only leaves the memory where it was.
// A nil log logs nothing.
func releaseMemory(log *slog.Logger) {
	debug.FreeOSMemory()
	n, err := releaseBinaryPages()
	if log == nil {
		return
	}
	if err != nil {
		log.Debug("releasing the executable's pages", "err", err)
		return
	}
	log.Debug("released idle memory", "binary_pages_bytes", n)
}
