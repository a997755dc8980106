// Package storelife is what the component engine keeps of stores beyond
// their lives: the snapshot of a configuration's initialisation, taken at
// its first store and restored into the next ones; the instances of a
// closed restored store, reset to the snapshot and handed to the next
// store of it; stores the engine's worker prepares from a snapshot ahead
// of time; and the bounds on all of these. The store's own work (calling
// guests, remaking handles) stays in package component, which drives
// these types. See RATIONALE.md, "Pre-initialised instantiation" and
// "The fixed cost of a store".
package storelife

import (
	"context"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/component/internal/memory"
)

// Instances are the wazero side of a store: its core instances and the
// host module's instance, the fuel counters in them, the limiter their
// memories were made with and the functions its sites looked up. They
// are what a closed restored store leaves to the next store of its
// snapshot.
type Instances struct {
	Core []api.Module
	Host api.Module
	// Fuel are the loop counters of the core instances that have loops
	// (coremod.AddInterruptChecks).
	Fuel []api.MutableGlobal
	Mem  *memory.Limiter
	// Funcs are the sites' functions of Core.
	Funcs SiteFuncs
}

// wazero's ExportedFunction makes a new call engine each time, with its
// own stack (about 80 KB here, grown again by the first deep call), so a
// store looks each site's functions up once. They belong to the core
// instances: a reused store's instances bring the ones their previous
// store made, and every site keeps calling through its own function
// exactly as within one store. Sharing one function between two sites is
// never done, since a call engine must not be re-entered and one core
// function may serve two sites of a hostile component at once (an export
// that is also the realloc its own results are lowered with).

// SiteKey is one site's function: Idx is the lifted function's ID or the
// lowered host function's index, Role which of the site's functions it
// is (the engine numbers them).
type SiteKey struct {
	Role uint8
	Idx  int
}

// SiteFuncs caches api.Functions by site.
type SiteFuncs map[SiteKey]api.Function

// close closes the instances of a store no one holds any more.
func (in *Instances) close(ctx context.Context) {
	for i := len(in.Core) - 1; i >= 0; i-- {
		if in.Core[i] != nil {
			_ = in.Core[i].Close(ctx) // nothing to report: the instance was idle
		}
	}
	if in.Host != nil {
		_ = in.Host.Close(ctx)
	}
}

// Life is a store's part in the life of its configuration's snapshot.
type Life struct {
	// Rec watches the initialisation of the configuration's first store,
	// which is to be snapshotted.
	Rec *Record
	// Restored is the snapshot the store was restored from, which its
	// instances may serve again once it is closed (Pool.Reset).
	Restored *Snapshot
	// Prep is the store of that snapshot the worker is to prepare: when
	// this one adopted a prepared one, and once it is closed.
	Prep Job
}
