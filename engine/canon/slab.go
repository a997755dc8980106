package canon

import "reflect"

// Option payloads on the typed path: lifting option<T> into a *E allocates
// the E. A value with several options of one Go type at fixed places (the
// option<string> fields of a record) would allocate once per option; a
// slab instead holds all of them, allocated once per lift when the first
// is needed, and each option points at its own element. An option inside
// a list is not at a fixed place (its count is the guest's), so it keeps
// its own allocation. The cost is that a payload kept alive keeps its
// slab (at most maxSlabLen elements) alive.

const (
	// maxSlabs is how many Go types one value's slabs may have; options of
	// further types are allocated one by one.
	maxSlabs = 4
	// maxSlabLen bounds a slab's elements, so that a value whose options
	// are mostly none (a fixed-length list of them) does not allocate a
	// large slab for nothing.
	maxSlabLen = 64
)

// slabSpec is one slab of a value's plan: an array of n payloads.
type slabSpec struct {
	array, elem reflect.Type
	elemSize    uintptr
	n           int
}

// slabState is a slab being handed out during one lift.
type slabState struct {
	next goRef
	left int
}

// compileRoot is compilePlan for a value lifted on its own (a codec's
// value, a parameter or a result): it also lays out the value's slabs.
func compileRoot(t *Type, rt reflect.Type) (*plan, error) {
	p, err := compilePlan(t, rt)
	if err != nil {
		return nil, err
	}
	counts := map[reflect.Type]int{}
	walkFixedOptions(p, 1, func(o *plan, n int) { counts[o.elemType] += n })
	index := map[reflect.Type]int{}
	walkFixedOptions(p, 1, func(o *plan, _ int) {
		n := counts[o.elemType]
		if n < 2 || n > maxSlabLen {
			return
		}
		i, ok := index[o.elemType]
		if !ok {
			if len(p.slabs) == maxSlabs {
				return
			}
			p.slabs = append(p.slabs, slabSpec{array: reflect.ArrayOf(n, o.elemType), elem: o.elemType, elemSize: o.elemSize, n: n})
			i = len(p.slabs)
			index[o.elemType] = i
		}
		o.slab = i
	})
	return p, nil
}

// walkFixedOptions calls f for each option of p's value at a fixed place,
// with how many times it occurs (more than once inside fixed-length
// lists).
func walkFixedOptions(p *plan, times int, f func(o *plan, times int)) {
	switch p.op {
	case opRecord:
		for i := range p.fields {
			walkFixedOptions(p.fields[i].plan, times, f)
		}
	case opFixed:
		walkFixedOptions(p.elem, times*int(p.t.n), f)
	case opOption:
		f(p, times)
		walkFixedOptions(p.elem, times, f)
	}
}

// startLift prepares c to lift a value of root plan p: its slabs are not
// allocated yet.
func (c *call) startLift(p *plan) {
	c.root = p
	c.slabs = [maxSlabs]slabState{}
}

// payload returns a zeroed E for option plan o's payload: the next element
// of its slab, or a fresh allocation. The slab's element type is checked
// against o's, so a lift started without startLift for o's root can only
// lose the slab, never hand out memory of another type.
func (c *call) payload(o *plan) goRef {
	if o.slab == 0 || c.root == nil || o.slab > len(c.root.slabs) || c.root.slabs[o.slab-1].elem != o.elemType {
		return newValue(o.elemType)
	}
	s := &c.slabs[o.slab-1]
	if s.left == 0 {
		spec := &c.root.slabs[o.slab-1]
		s.next, s.left = newValue(spec.array), spec.n
	}
	r := s.next
	s.left--
	if s.left > 0 {
		s.next = r.index(1, o.elemSize)
	}
	return r
}
