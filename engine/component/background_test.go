package component

import (
	"context"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/memory"
	"github.com/mur-go/mur/engine/component/internal/storelife"
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
	e.stores.Want(ctx, &prepareJob{snap: &storelife.Snapshot{}})
	e.bg.kick()
	stores, maps := e.stores.Stats(), e.pool.Stats()
	if stores.Idle != 0 || stores.Wanted != 0 || maps.Idle != 0 || maps.Dirty != 0 || !e.bg.closed {
		t.Fatalf("after Close the engine holds idle %d, wanted %d, mappings %d+%d", stores.Idle, stores.Wanted, maps.Idle, maps.Dirty)
	}
}
