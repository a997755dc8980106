package canon

import (
	"github.com/mur-go/mur/engine/wit"
)

// liftFlat lifts a value of type t from its flat core values f, exactly
// len(t.flat) of them (lift_flat). Values of i32 or f32 type are read from
// the low 32 bits, which also performs the i64-to-i32 wrap a joined variant
// payload slot needs; no other coercion is needed with values kept as bits.
func (c *call) liftFlat(t *Type, f []uint64) (any, error) {
	switch t.kind {
	case wit.KindBool:
		return uint32(f[0]) != 0, nil
	case wit.KindS8:
		return int8(f[0]), nil
	case wit.KindU8:
		return uint8(f[0]), nil
	case wit.KindS16:
		return int16(f[0]), nil
	case wit.KindU16:
		return uint16(f[0]), nil
	case wit.KindS32:
		return int32(f[0]), nil
	case wit.KindU32:
		return uint32(f[0]), nil
	case wit.KindS64:
		return int64(f[0]), nil
	case wit.KindU64:
		return f[0], nil
	case wit.KindF32:
		return f32(uint32(f[0])), nil
	case wit.KindF64:
		return f64(f[0]), nil
	case wit.KindChar:
		return liftChar(uint32(f[0]))
	case wit.KindString:
		return c.loadString(uint32(f[0]), uint32(f[1]))
	case wit.KindList:
		return c.loadList(t.elem, uint32(f[0]), uint32(f[1]))
	case wit.KindMap:
		return c.loadMap(t.elem, uint32(f[0]), uint32(f[1]))
	case wit.KindFixedList:
		if err := c.chargeList(t.n, t.elem.host); err != nil {
			return nil, err
		}
		e, k := t.elem, len(t.elem.flat)
		vs := make([]any, t.n)
		for i := range vs {
			v, err := c.liftFlat(e, f[i*k:(i+1)*k])
			if err != nil {
				return nil, err
			}
			vs[i] = v
		}
		return vs, nil
	case wit.KindRecord, wit.KindTuple:
		vs := make([]any, len(t.fields))
		for i, fl := range t.fields {
			v, err := c.liftFlat(fl.t, f[fl.flat:fl.flat+len(fl.t.flat)])
			if err != nil {
				return nil, err
			}
			vs[i] = v
		}
		return vs, nil
	case wit.KindFlags:
		bits := uint64(uint32(f[0]))
		if len(f) > 1 {
			bits |= uint64(uint32(f[1])) << 32
		}
		return bits & flagMask(t.n), nil
	case wit.KindOwn, wit.KindBorrow:
		return c.liftHandle(t, uint32(f[0]))
	}
	disc := uint32(f[0])
	if disc >= uint32(len(t.cases)) {
		return nil, trap("invalid %s discriminant %d (%d cases)", t.kind, disc, len(t.cases))
	}
	ct := t.cases[disc]
	if ct == nil {
		if t.units != nil {
			return t.units[disc], nil
		}
		return variantValue(t, disc, nil), nil
	}
	payload, err := c.liftFlat(ct, f[1:1+len(ct.flat)])
	if err != nil {
		return nil, err
	}
	return variantValue(t, disc, payload), nil
}
