package session

import (
	"context"
	"log/slog"
	"runtime/debug"

	"github.com/mur-go/mur/engine/component"
)

// releaseMemory gives back what a capsule waiting for its next task holds
// without needing: the engine's pooled mappings and stores (a nil engine
// has none), the heap its work left free (debug.FreeOSMemory) and the
// pages of the files it maps read-only, its executable and the guest
// code and modules mapped from the compilation cache (releaseFilePages). Neither changes
// what the capsule does; a failure only leaves the memory where it was.
// A nil log logs nothing.
func releaseMemory(engine *component.Engine, log *slog.Logger) {
	if engine != nil {
		engine.ReleaseIdle(context.Background())
	}
	debug.FreeOSMemory()
	n, err := releaseFilePages()
	if log == nil {
		return
	}
	if err != nil {
		log.Debug("releasing the pages of files mapped read-only", "err", err)
		return
	}
	log.Debug("released idle memory", "file_pages_bytes", n)
}
