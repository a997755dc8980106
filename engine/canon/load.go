package canon

import (
	"github.com/mur-go/mur/engine/wit"
)

// load lifts the value of type t stored at p (load). The caller has checked
// that [p, p+t.size) is aligned and in bounds, so only the targets of
// pointers inside the value are checked here.
func (c *call) load(t *Type, p uint32) (any, error) {
	m := c.mem
	switch t.kind {
	case wit.KindBool:
		return m[p] != 0, nil
	case wit.KindS8:
		return int8(m[p]), nil
	case wit.KindU8:
		return m[p], nil
	case wit.KindS16:
		return int16(get16(m, p)), nil
	case wit.KindU16:
		return get16(m, p), nil
	case wit.KindS32:
		return int32(get32(m, p)), nil
	case wit.KindU32:
		return get32(m, p), nil
	case wit.KindS64:
		return int64(get64(m, p)), nil
	case wit.KindU64:
		return get64(m, p), nil
	case wit.KindF32:
		return f32(get32(m, p)), nil
	case wit.KindF64:
		return f64(get64(m, p)), nil
	case wit.KindChar:
		return liftChar(get32(m, p))
	case wit.KindString:
		return c.loadString(get32(m, p), get32(m, p+4))
	case wit.KindList:
		return c.loadList(t.elem, get32(m, p), get32(m, p+4))
	case wit.KindMap:
		return c.loadMap(t.elem, get32(m, p), get32(m, p+4))
	case wit.KindFixedList:
		return c.loadElems(t.elem, p, t.n)
	case wit.KindRecord, wit.KindTuple:
		vs := make([]any, len(t.fields))
		for i, f := range t.fields {
			v, err := c.load(f.t, p+f.offset)
			if err != nil {
				return nil, err
			}
			vs[i] = v
		}
		return vs, nil
	case wit.KindFlags:
		bits := getN(m, p, t.size)
		return bits & flagMask(t.n), nil
	case wit.KindOwn, wit.KindBorrow:
		return c.liftHandle(t, get32(m, p))
	}
	disc, err := c.loadDisc(t, p)
	if err != nil {
		return nil, err
	}
	ct := t.cases[disc]
	if ct == nil {
		if t.units != nil {
			return t.units[disc], nil
		}
		return variantValue(t, disc, nil), nil
	}
	payload, err := c.load(ct, p+t.payload)
	if err != nil {
		return nil, err
	}
	return variantValue(t, disc, payload), nil
}

// loadList lifts n elements stored from ptr (load_list_from_range). A
// list<u8> becomes a []byte copy of the bytes.
func (c *call) loadList(elem *Type, ptr, n uint32) (any, error) {
	size := uint64(n) * uint64(elem.size)
	if size > maxListByteLength {
		return nil, trap("list of %d bytes exceeds the limit of 2^28-1", size)
	}
	if err := c.check(ptr, size, elem.align, "list"); err != nil {
		return nil, err
	}
	if elem.kind == wit.KindU8 {
		if err := c.charge(uint64(n)); err != nil {
			return nil, err
		}
		b := make([]byte, n)
		copy(b, c.mem[ptr:])
		return b, nil
	}
	return c.loadElems(elem, ptr, n)
}

// loadElems lifts n elements stored from ptr, which the caller has
// checked (load_list_from_valid_range), charging their host memory first.
func (c *call) loadElems(elem *Type, ptr, n uint32) ([]any, error) {
	if err := c.chargeList(n, elem.host); err != nil {
		return nil, err
	}
	vs := make([]any, n)
	for i := range vs {
		v, err := c.load(elem, ptr+uint32(i)*elem.size)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

// loadMap lifts the n key/value pairs of a map stored from ptr: a
// list<tuple<key, value>> (load_list_from_range), kept in order with any
// repeated keys, as the component model allows.
func (c *call) loadMap(pair *Type, ptr, n uint32) (any, error) {
	size := uint64(n) * uint64(pair.size)
	if size > maxListByteLength {
		return nil, trap("map of %d bytes exceeds the limit of 2^28-1", size)
	}
	if err := c.check(ptr, size, pair.align, "map"); err != nil {
		return nil, err
	}
	k, v := &pair.fields[0], &pair.fields[1]
	if err := c.chargeList(n, k.t.host+v.t.host); err != nil {
		return nil, err
	}
	es := make([]wit.MapEntry, n)
	for i := range es {
		p := ptr + uint32(i)*pair.size
		key, err := c.load(k.t, p+k.offset)
		if err != nil {
			return nil, err
		}
		val, err := c.load(v.t, p+v.offset)
		if err != nil {
			return nil, err
		}
		es[i] = wit.MapEntry{Key: key, Value: val}
	}
	return es, nil
}
