package stage

import (
	"context"
	"log/slog"
	"path/filepath"

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
func payloadCache(ctx context.Context, comp Compiler) artifact.PayloadCache {
	c, ok := comp.(interface{ CacheDir() string })
	if !ok || c.CacheDir() == "" {
		return nil
	}
	m, err := diskmemo.Open(filepath.Join(c.CacheDir(), payloadsDir))
	if err != nil {
		slog.DebugContext(ctx, "stage: payloads are inflated on every run", "reason", err.Error())
		return nil
	}
	return m
}
