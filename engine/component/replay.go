package component

import (
	"context"
	"fmt"
	"slices"

	"github.com/mur-go/mur/engine/component/internal/storelife"
)

// tablesMatch reports whether s's handle tables are exactly what replay,
// the calls and drops its initialisation recorded, makes, so nothing
// unrecorded (a guest resource created, a handle passed to the host)
// changed them.
func (s *Store) tablesMatch(replay []storelife.Call) bool {
	count := handleCount{max: s.handles.max}
	sim := make([]handleTable, len(s.tables))
	for i := range sim {
		sim[i].count = &count
	}
	for _, c := range replay {
		tab := &sim[s.comp.plan.HostFuncs[c.Fn].CompInst]
		if c.Drop {
			if _, err := tab.get(c.Handles[0]); err != nil {
				return false
			}
			tab.remove(c.Handles[0])
			continue
		}
		for _, want := range c.Handles {
			if idx, err := tab.insert(handleEntry{own: true}); err != nil || idx != want {
				return false
			}
		}
	}
	if count.live != s.handles.live {
		return false
	}
	for i := range sim {
		got, want := s.tables[i], sim[i]
		if !slices.Equal(got.free, want.free) || len(got.entries) != len(want.entries) {
			return false
		}
		for j := range got.entries {
			if got.entries[j].used != want.entries[j].used || (got.entries[j].used && !got.entries[j].own) {
				return false
			}
		}
	}
	return true
}

// replay makes call c of the snapshot's initialisation again in s and
// puts its resources under the recorded handle numbers.
func (s *Store) replay(ctx context.Context, c storelife.Call) error {
	h := s.comp.plan.HostFuncs[c.Fn]
	if c.Drop {
		return s.dropHandle(ctx, h, c.Handles[0])
	}
	v, err := s.callFunc(ctx, h.Target, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", h.Target, err)
	}
	res, ok := c.Answer(v)
	if !ok {
		return fmt.Errorf("%s answered differently than when the snapshot was taken", h.Target)
	}
	tab := &s.tables[h.CompInst]
	for j, r := range res {
		idx, err := tab.insert(handleEntry{typ: r.Type, rep: r.Rep, own: true})
		if err != nil {
			return err
		}
		if idx != c.Handles[j] {
			return fmt.Errorf("%s: handle %d, the snapshot has %d", h.Target, idx, c.Handles[j])
		}
	}
	return nil
}
