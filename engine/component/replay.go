package component

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/wit"
)

// replayCall is an admitted host call of initialisation that handed the
// guest resource handles. A restored store makes it again against its own
// host and puts the new resources under the same handle numbers, which the
// snapshot's memory refers to: Go's runtime asks the preview1 adapter for
// the stdio streams and the preopens at start-up, and the adapter keeps
// their handles. Nothing is lowered again: the snapshot already holds what
// the first lowering wrote, so the rest of the answer must be the same.
//
// The adapter also drops handles it asked for twice; a drop of a host
// resource is replayed too (drop set, handles its one handle), so the
// restored tables, free slots included, are those the snapshot saw.
type replayCall struct {
	fn int // index into plan.hostFuncs
	// value is the answer with every resource's rep zeroed.
	value any
	// handles are the numbers its resources got, in lowering order.
	handles []uint32
	drop    bool
}

// dropped records initialisation's resource.drop of handle idx through
// host function i: a host resource's is replayed, a guest resource's
// (whose destructor is guest code with effects of its own) denies the
// snapshot.
func (r *initRecord) dropped(i int, h *plan.HostFunc, p *plan.Plan, idx uint32) {
	if r.denied != "" {
		return
	}
	if _, guest := p.Resources[h.Resource]; guest {
		r.denied = "initialisation dropped a resource of its own"
		return
	}
	r.replay = append(r.replay, replayCall{fn: i, handles: []uint32{idx}, drop: true})
}

// tablesMatch reports whether s's handle tables are exactly what the
// recorded calls and drops make, so nothing unrecorded (a guest resource
// created, a handle passed to the host) changed them.
func (r *initRecord) tablesMatch(s *Store) bool {
	count := handleCount{max: s.handles.max}
	sim := make([]handleTable, len(s.tables))
	for i := range sim {
		sim[i].count = &count
	}
	for _, c := range r.replay {
		tab := &sim[s.comp.plan.HostFuncs[c.fn].CompInst]
		if c.drop {
			if _, err := tab.get(c.handles[0]); err != nil {
				return false
			}
			tab.remove(c.handles[0])
			continue
		}
		for _, want := range c.handles {
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

// lower lowers an admitted call's answer v while recording the own
// handles it makes; a call that made some becomes a replayCall, or, when
// it cannot be replayed faithfully, denies the snapshot.
func (r *initRecord) lower(ctx context.Context, i int, h *plan.HostFunc, opts *canon.Options, v any, stack []uint64) error {
	rh := &recordingHandles{Handles: opts.Handles}
	o := *opts
	o.Handles = rh
	if err := h.Target.ABI.LowerResult(ctx, &o, v, stack, stack); err != nil {
		return err
	}
	if len(rh.owns) == 0 || r.denied != "" {
		return nil
	}
	res, ok := resources(v, nil)
	switch {
	case len(h.Target.Type.Params) != 0:
		r.denied = "initialisation received resource handles from " + h.Target.String() + ", which takes arguments"
	case !ok || len(res) != len(rh.owns) || rh.borrows != 0:
		r.denied = "initialisation received resource handles from " + h.Target.String() + " in a form the engine cannot remake"
	default:
		for j, own := range rh.owns {
			if own.r != res[j] {
				r.denied = "initialisation received resource handles from " + h.Target.String() + " in an unexpected order"
				return nil
			}
		}
		handles := make([]uint32, len(rh.owns))
		for j, own := range rh.owns {
			handles[j] = own.idx
		}
		r.replay = append(r.replay, replayCall{fn: i, value: zeroReps(v), handles: handles})
	}
	return nil
}

// replay makes call c again in s and puts its resources under the
// recorded handle numbers.
func (s *Store) replay(ctx context.Context, c replayCall) error {
	h := s.comp.plan.HostFuncs[c.fn]
	if c.drop {
		return s.dropHandle(ctx, h, c.handles[0])
	}
	v, err := s.callFunc(ctx, h.Target, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", h.Target, err)
	}
	res, ok := resources(v, nil)
	if !ok || len(res) != len(c.handles) || !reflect.DeepEqual(zeroReps(v), c.value) {
		return fmt.Errorf("%s answered differently than when the snapshot was taken", h.Target)
	}
	tab := &s.tables[h.CompInst]
	for j, r := range res {
		idx, err := tab.insert(handleEntry{typ: r.Type, rep: r.Rep, own: true})
		if err != nil {
			return err
		}
		if idx != c.handles[j] {
			return fmt.Errorf("%s: handle %d, the snapshot has %d", h.Target, idx, c.handles[j])
		}
	}
	return nil
}

// recordingHandles notes the handles a lowering makes.
type recordingHandles struct {
	canon.Handles
	owns    []ownHandle
	borrows int
}

type ownHandle struct {
	r   wit.Resource
	idx uint32
}

func (h *recordingHandles) LowerOwn(t *wit.ResourceType, r wit.Resource) (uint32, error) {
	idx, err := h.Handles.LowerOwn(t, r)
	if err == nil {
		h.owns = append(h.owns, ownHandle{r, idx})
	}
	return idx, err
}

func (h *recordingHandles) LowerBorrow(t *wit.ResourceType, r wit.Resource) (uint32, error) {
	h.borrows++
	return h.Handles.LowerBorrow(t, r)
}

// resources appends the resources in v in the order the canonical ABI
// lowers them (depth first, fields and elements in order). ok is false
// for a Go type it does not know, which might hide one.
func resources(v any, out []wit.Resource) ([]wit.Resource, bool) {
	switch x := v.(type) {
	case wit.Resource:
		return append(out, x), true
	case []any:
		for _, e := range x {
			var ok bool
			if out, ok = resources(e, out); !ok {
				return nil, false
			}
		}
		return out, true
	case wit.OptionValue:
		return resources(x.Value, out)
	case wit.ResultValue:
		return resources(x.Value, out)
	case wit.VariantValue:
		return resources(x.Value, out)
	case nil, bool, string, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, []byte, []bool:
		return out, true
	}
	return nil, false
}

// zeroReps is v with every resource's rep zeroed: reps are the host's
// business and differ between stores, the rest of an answer must not.
func zeroReps(v any) any {
	switch x := v.(type) {
	case wit.Resource:
		return wit.Resource{Type: x.Type}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = zeroReps(e)
		}
		return out
	case wit.OptionValue:
		return wit.OptionValue{Some: x.Some, Value: zeroReps(x.Value)}
	case wit.ResultValue:
		return wit.ResultValue{Err: x.Err, Value: zeroReps(x.Value)}
	case wit.VariantValue:
		return wit.VariantValue{Case: x.Case, Value: zeroReps(x.Value)}
	}
	return v
}
