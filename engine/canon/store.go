package canon

import (
	"github.com/mur-go/mur/engine/wit"
)

// store lowers v, a Go value of type t, into memory at p (store). The
// caller has checked that [p, p+t.size) is aligned and in bounds. Storing a
// string or list calls realloc, which refreshes c.mem, so c.mem is re-read
// after every such step rather than held in a local.
func (c *call) store(t *Type, v any, p uint32) error {
	switch t.kind {
	case wit.KindString:
		s, ok := v.(string)
		if !ok {
			return mismatch(t, v)
		}
		ptr, n, err := c.lowerString(t, s)
		if err != nil {
			return err
		}
		put32(c.mem, p, ptr)
		put32(c.mem, p+4, n)
		return nil
	case wit.KindList:
		ptr, n, err := c.lowerList(t, v)
		if err != nil {
			return err
		}
		put32(c.mem, p, ptr)
		put32(c.mem, p+4, n)
		return nil
	case wit.KindMap:
		ptr, n, err := c.lowerMap(t, v)
		if err != nil {
			return err
		}
		put32(c.mem, p, ptr)
		put32(c.mem, p+4, n)
		return nil
	case wit.KindFixedList:
		vs, err := fixedValues(t, v)
		if err != nil {
			return err
		}
		for i, x := range vs {
			if err := c.store(t.elem, x, p+uint32(i)*t.elem.size); err != nil {
				return at(err, "list element %d", i)
			}
		}
		return nil
	case wit.KindRecord, wit.KindTuple:
		vs, err := fieldValues(t, v)
		if err != nil {
			return err
		}
		for i, f := range t.fields {
			if err := c.store(f.t, vs[i], p+f.offset); err != nil {
				return at(err, "%s", fieldName(t, i))
			}
		}
		return nil
	case wit.KindVariant, wit.KindEnum, wit.KindOption, wit.KindResult:
		disc, payload, err := caseOf(t, v)
		if err != nil {
			return err
		}
		c.storeDisc(t, p, disc)
		if ct := t.cases[disc]; ct != nil {
			if err := c.store(ct, payload, p+t.payload); err != nil {
				return at(err, "%s", caseName(t, disc))
			}
		}
		return nil
	case wit.KindFlags:
		bits, err := flagBits(t, v)
		if err != nil {
			return err
		}
		putN(c.mem, p, t.size, bits)
		return nil
	case wit.KindOwn, wit.KindBorrow:
		h, err := c.lowerHandle(t, v)
		if err != nil {
			return err
		}
		put32(c.mem, p, h)
		return nil
	}
	bits, err := scalarBits(t, v)
	if err != nil {
		return err
	}
	putN(c.mem, p, t.size, bits)
	return nil
}

// lowerList stores the elements of list v into a fresh allocation
// (store_list_into_range) and returns its pointer and length.
func (c *call) lowerList(t *Type, v any) (ptr, n uint32, err error) {
	e := t.elem
	if e.kind == wit.KindU8 {
		b, ok := v.([]byte)
		if !ok {
			return 0, 0, mismatch(t, v)
		}
		if len(b) > reallocMax {
			return 0, 0, badValue(t, "list of %d bytes", len(b))
		}
		if ptr, err = c.realloc(0, 0, 1, uint32(len(b))); err != nil {
			return 0, 0, err
		}
		copy(c.mem[ptr:], b)
		return ptr, uint32(len(b)), nil
	}
	vs, ok := v.([]any)
	if !ok {
		return 0, 0, mismatch(t, v)
	}
	size := uint64(len(vs)) * uint64(e.size)
	if size > reallocMax {
		return 0, 0, badValue(t, "list of %d bytes", size)
	}
	if ptr, err = c.realloc(0, 0, e.align, uint32(size)); err != nil {
		return 0, 0, err
	}
	for i, x := range vs {
		if err := c.store(e, x, ptr+uint32(i)*e.size); err != nil {
			return 0, 0, at(err, "list element %d", i)
		}
	}
	return ptr, uint32(len(vs)), nil
}

// lowerMap stores the pairs of map v into a fresh allocation, as the
// list<tuple<key, value>> it is passed as (store_list_into_range), and
// returns its pointer and length.
func (c *call) lowerMap(t *Type, v any) (ptr, n uint32, err error) {
	es, ok := v.([]wit.MapEntry)
	if !ok {
		return 0, 0, mismatch(t, v)
	}
	pair := t.elem
	size := uint64(len(es)) * uint64(pair.size)
	if size > reallocMax {
		return 0, 0, badValue(t, "map of %d bytes", size)
	}
	if ptr, err = c.realloc(0, 0, pair.align, uint32(size)); err != nil {
		return 0, 0, err
	}
	k, val := &pair.fields[0], &pair.fields[1]
	for i, x := range es {
		p := ptr + uint32(i)*pair.size
		if err := c.store(k.t, x.Key, p+k.offset); err != nil {
			return 0, 0, at(err, "map key %d", i)
		}
		if err := c.store(val.t, x.Value, p+val.offset); err != nil {
			return 0, 0, at(err, "map value %d", i)
		}
	}
	return ptr, uint32(len(es)), nil
}

// scalarBits checks v against primitive type t (other than string) and
// returns its flat core value: integers zero-extended from their i32 or
// i64 two's complement, floats as NaN-canonicalized bits, char as i32.
func scalarBits(t *Type, v any) (uint64, error) {
	ok := false
	var bits uint64
	switch t.kind {
	case wit.KindBool:
		var x bool
		if x, ok = v.(bool); x {
			bits = 1
		}
	case wit.KindS8:
		var x int8
		x, ok = v.(int8)
		bits = uint64(uint32(int32(x)))
	case wit.KindU8:
		var x uint8
		x, ok = v.(uint8)
		bits = uint64(x)
	case wit.KindS16:
		var x int16
		x, ok = v.(int16)
		bits = uint64(uint32(int32(x)))
	case wit.KindU16:
		var x uint16
		x, ok = v.(uint16)
		bits = uint64(x)
	case wit.KindS32:
		var x int32
		x, ok = v.(int32)
		bits = uint64(uint32(x))
	case wit.KindU32:
		var x uint32
		x, ok = v.(uint32)
		bits = uint64(x)
	case wit.KindS64:
		var x int64
		x, ok = v.(int64)
		bits = uint64(x)
	case wit.KindU64:
		bits, ok = v.(uint64)
	case wit.KindF32:
		var x float32
		x, ok = v.(float32)
		bits = uint64(f32Bits(x))
	case wit.KindF64:
		var x float64
		x, ok = v.(float64)
		bits = f64Bits(x)
	case wit.KindChar:
		var x rune
		if x, ok = v.(rune); ok && !validChar(uint32(x)) {
			return 0, badValue(t, "invalid char %#x", x)
		}
		bits = uint64(uint32(x))
	}
	if !ok {
		return 0, mismatch(t, v)
	}
	return bits, nil
}
