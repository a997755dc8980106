package stage

import (
	"context"
	"log/slog"

	"github.com/mur-go/mur/engine/diskmemo"
	"github.com/mur-go/mur/internal/format/artifact"
)

// payloadsDir is the subdirectory of the compilation cache that keeps
// inflated WASM payloads.
const payloadsDir = "mur-payloads"

// payloadCache keeps inflated WASM payloads beside comp's compilation
// cache, so a warm start reads a payload instead of inflating it from its
// archive (artifact.Package.RootWasmFrom checks it against the archive's
// record of the entry). nil when comp has no cache: payloads are then
// inflated on every run.
//
// A payload found there is mapped, not read (mappedPayloads): the memo is
// the engine's, so each is mapped once however many sessions a process
// stages, and the bytes are never written to (compiling, hashing and
// placing payloads only read them).
func payloadCache(ctx context.Context, comp Compiler) artifact.PayloadCache {
	c, ok := comp.(interface {
		Memo(name string) (*diskmemo.Memo, error)
	})
	if !ok {
		return nil
	}
	m, err := c.Memo(payloadsDir)
	if err != nil {
		slog.DebugContext(ctx, "stage: payloads are inflated on every run", "reason", err.Error())
		return nil
	}
	return mappedPayloads{m}
}

// mappedPayloads hands out cached payloads where they are in their
// entry's file (diskmemo.Memo.Map): a warm start faults in the page
// cache's pages instead of reading 3.5 MB (the scripted driver's) into
// fresh heap.
type mappedPayloads struct{ *diskmemo.Memo }

func (m mappedPayloads) Get(key [32]byte) ([]byte, bool) { return m.Map(key) }
