package component

import (
	"fmt"
	"strconv"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/wit"
)

// handleTable is one component instance's resource handle table. Index 0
// is never handed out, as the canonical ABI requires.
type handleTable struct {
	entries []handleEntry
	free    []uint32
	// count is shared by all the store's tables: the cap is per store.
	count *handleCount
}

// handleCount is the number of live handles in a store's tables, and
// their cap (Limits.MaxHandles).
type handleCount struct {
	live, max int
}

type handleEntry struct {
	used  bool
	typ   *wit.ResourceType // the runtime type (host types substituted)
	rep   uint32
	own   bool
	lends uint32     // live borrows of an own handle
	scope *callScope // the call a borrow handle belongs to
}

func (t *handleTable) insert(e handleEntry) (uint32, error) {
	if c := t.count; c.live >= c.max {
		return 0, &LimitError{Limit: LimitHandles, Desired: uint64(c.live) + 1, Max: uint64(c.max)}
	}
	t.count.live++
	e.used = true
	if n := len(t.free); n > 0 {
		h := t.free[n-1]
		t.free = t.free[:n-1]
		t.entries[h] = e
		return h, nil
	}
	if len(t.entries) == 0 {
		t.entries = append(t.entries, handleEntry{})
	}
	if len(t.entries) >= 1<<28 {
		t.count.live--
		return 0, &canon.Trap{Reason: "resource handle table is full"}
	}
	t.entries = append(t.entries, e)
	return uint32(len(t.entries) - 1), nil
}

func (t *handleTable) get(h uint32) (*handleEntry, error) {
	if h == 0 || int(h) >= len(t.entries) || !t.entries[h].used {
		return nil, &canon.Trap{Reason: "unknown resource handle " + strconv.Itoa(int(h))}
	}
	return &t.entries[h], nil
}

func (t *handleTable) remove(h uint32) {
	t.count.live--
	t.entries[h] = handleEntry{}
	t.free = append(t.free, h)
}

// callScope tracks the handles one call lends out and borrows, so they can
// be checked and released when the call returns.
type callScope struct {
	// borrows counts borrow handles given to the callee still undropped.
	borrows int
	// lent are own handles (in the caller's table) lent for the call.
	lent []lent
}

type lent struct {
	table *handleTable
	h     uint32
}

func (c *callScope) release() {
	for _, l := range c.lent {
		if int(l.h) < len(l.table.entries) && l.table.entries[l.h].lends > 0 {
			l.table.entries[l.h].lends--
		}
	}
	c.lent = c.lent[:0]
}

// handles implements canon.Handles for one component instance during one
// call.
type handles struct {
	s        *Store
	compInst int
	scope    *callScope
}

func (h *handles) table() *handleTable { return &h.s.tables[h.compInst] }

func (h *handles) LiftOwn(t *wit.ResourceType, idx uint32) (wit.Resource, error) {
	tab := h.table()
	e, err := tab.get(idx)
	if err != nil {
		return wit.Resource{}, err
	}
	if !e.own || e.typ != h.s.runtimeType(t) {
		return wit.Resource{}, &canon.Trap{Reason: "handle " + strconv.Itoa(int(idx)) + " is not an owned " + resName(t)}
	}
	if e.lends > 0 {
		return wit.Resource{}, &canon.Trap{Reason: "cannot transfer handle " + strconv.Itoa(int(idx)) + " while it is borrowed"}
	}
	r := wit.Resource{Type: e.typ, Rep: e.rep}
	tab.remove(idx)
	return r, nil
}

func (h *handles) LiftBorrow(t *wit.ResourceType, idx uint32) (wit.Resource, error) {
	tab := h.table()
	e, err := tab.get(idx)
	if err != nil {
		return wit.Resource{}, err
	}
	if e.typ != h.s.runtimeType(t) {
		return wit.Resource{}, &canon.Trap{Reason: "handle " + strconv.Itoa(int(idx)) + " is not a " + resName(t)}
	}
	if e.own && h.scope != nil {
		e.lends++
		h.scope.lent = append(h.scope.lent, lent{tab, idx})
	}
	return wit.Resource{Type: e.typ, Rep: e.rep}, nil
}

func (h *handles) LowerOwn(t *wit.ResourceType, r wit.Resource) (uint32, error) {
	if r.Type != h.s.runtimeType(t) {
		return 0, fmt.Errorf("%s passed where %s is expected", resName(r.Type), resName(t))
	}
	return h.table().insert(handleEntry{typ: r.Type, rep: r.Rep, own: true})
}

func (h *handles) LowerBorrow(t *wit.ResourceType, r wit.Resource) (uint32, error) {
	if r.Type != h.s.runtimeType(t) {
		return 0, fmt.Errorf("%s passed where %s is expected", resName(r.Type), resName(t))
	}
	// A component receiving a borrow of its own resource type gets the rep.
	if def, ok := h.s.comp.plan.Resources[t]; ok && def.CompInst == h.compInst {
		return r.Rep, nil
	}
	if h.scope != nil {
		h.scope.borrows++
	}
	return h.table().insert(handleEntry{typ: r.Type, rep: r.Rep, scope: h.scope})
}

func resName(t *wit.ResourceType) string {
	if t == nil || t.Name == "" {
		return "resource"
	}
	return "resource " + t.Name
}
