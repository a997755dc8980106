package storelife

import (
	"context"
	"reflect"
	"strings"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/wit"
)

// Record watches an initialisation that may be snapshotted: the host calls
// it makes, and the handles they hand the guest.
type Record struct {
	allow func(instance, name string) bool
	// denied says why the snapshot would not be faithful.
	denied string
	// Replay are the handle-making calls and host-resource drops a
	// restored store repeats.
	Replay []Call
}

// NewRecord watches an initialisation that may call the imported
// functions allow admits (Preinit.Allow).
func NewRecord(allow func(instance, name string) bool) *Record {
	return &Record{allow: allow}
}

// Denied says why the snapshot would not be faithful, or "".
func (r *Record) Denied() string { return r.denied }

// Deny records why the snapshot would not be faithful, unless a reason
// was recorded already.
func (r *Record) Deny(why string) {
	if r.denied == "" {
		r.denied = why
	}
}

// Observe notes a call into the host; one Allow does not admit denies the
// snapshot.
func (r *Record) Observe(fn *plan.Func) {
	if !fn.Imported || r.denied != "" {
		return
	}
	inst, _, _ := strings.Cut(fn.Instance, "@")
	if r.allow == nil || !r.allow(inst, fn.Name) {
		r.denied = "initialisation called " + fn.String()
	}
}

// Call is an admitted host call of initialisation that handed the guest
// resource handles. A restored store makes it again against its own host
// and puts the new resources under the same handle numbers, which the
// snapshot's memory refers to: Go's runtime asks the preview1 adapter for
// the stdio streams and the preopens at start-up, and the adapter keeps
// their handles. Nothing is lowered again: the snapshot already holds what
// the first lowering wrote, so the rest of the answer must be the same.
//
// The adapter also drops handles it asked for twice; a drop of a host
// resource is replayed too (Drop set, Handles its one handle), so the
// restored tables, free slots included, are those the snapshot saw.
type Call struct {
	Fn int // index into plan.HostFuncs
	// value is the answer with every resource's rep zeroed.
	value any
	// Handles are the numbers its resources got, in lowering order.
	Handles []uint32
	Drop    bool
}

// Answer returns the resources of v, what the call answered when made
// again, in the order they were lowered, or false when v differs from
// the recorded answer but for the resources' reps.
func (c *Call) Answer(v any) ([]wit.Resource, bool) {
	res, ok := resources(v, nil)
	if !ok || len(res) != len(c.Handles) || !reflect.DeepEqual(zeroReps(v), c.value) {
		return nil, false
	}
	return res, true
}

// Dropped records initialisation's resource.drop of handle idx through
// host function i of p: a host resource's is replayed, a guest resource's
// (whose destructor is guest code with effects of its own) denies the
// snapshot.
func (r *Record) Dropped(i int, h *plan.HostFunc, p *plan.Plan, idx uint32) {
	if r.denied != "" {
		return
	}
	if _, guest := p.Resources[h.Resource]; guest {
		r.denied = "initialisation dropped a resource of its own"
		return
	}
	r.Replay = append(r.Replay, Call{Fn: i, Handles: []uint32{idx}, Drop: true})
}

// Lower lowers an admitted call's answer v while recording the own
// handles it makes; a call that made some becomes a Call, or, when it
// cannot be replayed faithfully, denies the snapshot.
func (r *Record) Lower(ctx context.Context, i int, h *plan.HostFunc, opts *canon.Options, v any, stack []uint64) error {
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
		r.Replay = append(r.Replay, Call{Fn: i, value: zeroReps(v), Handles: handles})
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
