package traceview

import "crypto/sha256"

// Redundant is a call that read a resource again with no call in between
// that changed it. What the call did comes only from its own declared
// state_effect, which resource from its declared resource_id (else a
// path field of its input): no tool or operation is known by name, so a
// new tool is handled the moment it declares its effects.
type Redundant struct {
	Turn     uint32
	Tool     string
	Resource string
	// PriorTurn is the turn of the read this one repeats.
	PriorTurn uint32
}

// rereads follows the resources a session's calls read. A resource is
// keyed by its digest: what a record keeps of one is bounded, however
// long a hostile trace makes it.
type rereads struct {
	lastRead map[[32]byte]uint32 // resource → turn of its latest read
	found    []Redundant
}

// call records one tool call. resourceID is the declared identity ("" is
// undeclared), in the input's path fallback; effect the declared
// state_effect ("" undeclared). An undeclared or unknown effect counts as
// a change (never assume a call harmless) and is never a re-read (never
// a false alarm). A call with no resource is not followed.
func (r *rereads) call(turn uint32, tool, resourceID, effect string, in input) {
	resource, ok := resourceID, resourceID != ""
	if !ok {
		resource, ok = in.path, in.hasPath
	}
	if !ok {
		return
	}
	if r.lastRead == nil {
		r.lastRead = map[[32]byte]uint32{}
	}
	key := sha256.Sum256([]byte(resource))
	if effect != "read" {
		delete(r.lastRead, key)
		return
	}
	if prior, seen := r.lastRead[key]; seen {
		r.found = append(r.found, Redundant{Turn: turn, Tool: tool, Resource: clean(resource), PriorTurn: prior})
	}
	r.lastRead[key] = turn
}
