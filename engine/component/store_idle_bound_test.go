package component_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// An engine configured for many calls at once (Config.IdleStores) keeps
// as many idle stores: stores of eight configurations closed one after
// another are all reused, where the default engine keeps only the
// latest few (TestIdleStoresMakeRoomForTheLatest).
func TestIdleStoresBoundFollowsTheConfig(t *testing.T) {
	for _, tt := range []struct {
		idle      int
		oldReused bool
	}{{0, false}, {8, true}} {
		t.Run(fmt.Sprint("IdleStores ", tt.idle), func(t *testing.T) {
			e, err := component.NewEngine(context.Background(), component.Config{CacheDir: cacheDir, IdleStores: tt.idle})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close(context.Background()) })
			c, l := compile(t, e, storeReuse), component.NewLinker()
			const configs = 8
			for i := range configs {
				parkedStoreOf(t, l, c, fmt.Sprint("config ", i), component.Limits{}, func(*reuseStore) {})
			}
			reused := component.ReusedStores(e)
			newReuseStore(t, l, c, &component.Store{Preinit: &component.Preinit{Key: "config 0", Allow: allowAll}}).close()
			if got := component.ReusedStores(e) > reused; got != tt.oldReused {
				t.Fatalf("the store closed longest ago reused: %v, want %v", got, tt.oldReused)
			}
		})
	}
}
