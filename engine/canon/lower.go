package canon

import (
	"github.com/mur-go/mur/engine/wit"
)

// lowerFlat lowers v, a Go value of type t, into exactly len(t.flat) core
// values in dst (lower_flat). Values are kept as bits with i32 and f32
// zero-extended, so the coercions into a joined variant slot (f32 to i32,
// i32 or f32 to i64, f64 to i64) need no work; unused payload slots are
// zeroed.
func (c *call) lowerFlat(t *Type, v any, dst []uint64) error {
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
		dst[0], dst[1] = uint64(ptr), uint64(n)
		return nil
	case wit.KindList:
		ptr, n, err := c.lowerList(t, v)
		if err != nil {
			return err
		}
		dst[0], dst[1] = uint64(ptr), uint64(n)
		return nil
	case wit.KindMap:
		ptr, n, err := c.lowerMap(t, v)
		if err != nil {
			return err
		}
		dst[0], dst[1] = uint64(ptr), uint64(n)
		return nil
	case wit.KindFixedList:
		vs, err := fixedValues(t, v)
		if err != nil {
			return err
		}
		e, k := t.elem, len(t.elem.flat)
		for i, x := range vs {
			if err := c.lowerFlat(e, x, dst[i*k:(i+1)*k]); err != nil {
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
			if err := c.lowerFlat(f.t, vs[i], dst[f.flat:f.flat+len(f.t.flat)]); err != nil {
				return at(err, "%s", fieldName(t, i))
			}
		}
		return nil
	case wit.KindVariant, wit.KindEnum, wit.KindOption, wit.KindResult:
		disc, payload, err := caseOf(t, v)
		if err != nil {
			return err
		}
		dst[0] = uint64(disc)
		rest := dst[1:]
		if ct := t.cases[disc]; ct != nil {
			if err := c.lowerFlat(ct, payload, rest[:len(ct.flat)]); err != nil {
				return at(err, "%s", caseName(t, disc))
			}
			rest = rest[len(ct.flat):]
		}
		clear(rest)
		return nil
	case wit.KindFlags:
		bits, err := flagBits(t, v)
		if err != nil {
			return err
		}
		dst[0] = uint64(uint32(bits))
		if len(dst) > 1 {
			dst[1] = bits >> 32
		}
		return nil
	case wit.KindOwn, wit.KindBorrow:
		h, err := c.lowerHandle(t, v)
		if err != nil {
			return err
		}
		dst[0] = uint64(h)
		return nil
	}
	bits, err := scalarBits(t, v)
	if err != nil {
		return err
	}
	dst[0] = bits
	return nil
}
