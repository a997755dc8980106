package component

import (
	"context"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/memory"
)

// Engine.Close stops the worker and leaves nothing prepared or pooled,
// even with work still queued.
func TestCloseLeavesNothingPrepared(t *testing.T) {
	ctx := context.Background()
	e, err := NewEngine(ctx, Config{DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	// A mapping released into the engine's pool, for the worker to clear.
	memory.NewLimiter(0, e.pool).Allocate(64<<10, 64<<10).Free()
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	e.stores.want(prepareJob{ctx: ctx, snap: &snapshot{}})
	e.bg.kick()
	maps := e.pool.Stats()
	if len(e.stores.idle) != 0 || len(e.stores.wanted) != 0 || maps.Idle != 0 || maps.Dirty != 0 || !e.bg.closed {
		t.Fatalf("after Close the engine holds idle %d, wanted %d, mappings %d+%d", len(e.stores.idle), len(e.stores.wanted), maps.Idle, maps.Dirty)
	}
}
