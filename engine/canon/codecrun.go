package canon

import (
	"github.com/mur-go/mur/engine/wit"
)

// The typed path's four operations: the dynamic path's load, store,
// liftFlat and lowerFlat, reading and writing Go values through a plan
// instead of boxing them in any. Guest memory is accessed exactly as the
// dynamic path accesses it (the same checks, in the same order, with the
// same traps); Go values only through the helpers of goref.go.

// loadGo lifts the value of plan pl's type stored at p into the Go value
// at dst. The caller has checked [p, p+size) as for load.
func (c *call) loadGo(pl *plan, p uint32, dst goRef) error {
	m := c.mem
	t := pl.t
	switch pl.op {
	case opPrim:
		switch t.kind {
		case wit.KindBool:
			set(dst, m[p] != 0)
		case wit.KindS8, wit.KindU8:
			set(dst, m[p])
		case wit.KindS16, wit.KindU16:
			set(dst, get16(m, p))
		case wit.KindS32, wit.KindU32:
			set(dst, get32(m, p))
		case wit.KindS64, wit.KindU64:
			set(dst, get64(m, p))
		case wit.KindF32:
			set(dst, f32(get32(m, p)))
		case wit.KindF64:
			set(dst, f64(get64(m, p)))
		case wit.KindChar:
			x := get32(m, p)
			if !validChar(x) {
				return trap("invalid char %#x", x)
			}
			set(dst, x)
		case wit.KindString:
			s, err := c.loadString(get32(m, p), get32(m, p+4))
			if err != nil {
				return err
			}
			set(dst, s)
		}
		return nil
	case opEnum:
		disc, err := c.loadDisc(t, p)
		if err != nil {
			return err
		}
		setUint(dst, pl.goSize, uint64(disc))
		return nil
	case opFlags:
		bits := getN(m, p, t.size)
		set(dst, bits&flagMask(t.n))
		return nil
	case opBytes, opList:
		return c.loadListGo(pl, get32(m, p), get32(m, p+4), dst)
	case opFixed:
		for i := range int(t.n) {
			if err := c.loadGo(pl.elem, p+uint32(i)*t.elem.size, dst.index(i, pl.elemSize)); err != nil {
				return err
			}
		}
		return nil
	case opRecord:
		for i := range pl.fields {
			f := &pl.fields[i]
			if err := c.loadGo(f.plan, p+f.f.offset, dst.field(f.goOff)); err != nil {
				return err
			}
		}
		return nil
	case opOption:
		disc, err := c.loadDisc(t, p)
		if err != nil {
			return err
		}
		if disc == 0 {
			setPtr(dst, goRef{})
			return nil
		}
		v := c.payload(pl)
		if err := c.loadGo(pl.elem, p+t.payload, v); err != nil {
			return err
		}
		setPtr(dst, v)
		return nil
	case opHandle:
		r, err := c.liftResource(t, get32(m, p))
		if err != nil {
			return err
		}
		setResource(dst, r)
		return nil
	}
	v, err := c.load(t, p)
	if err != nil {
		return err
	}
	setDynamic(pl, dst, v)
	return nil
}

// loadListGo lifts n elements stored from ptr into the slice at dst, with
// loadList's checks.
func (c *call) loadListGo(pl *plan, ptr, n uint32, dst goRef) error {
	elem := pl.t.elem
	size := uint64(n) * uint64(elem.size)
	what := "list"
	if pl.t.kind == wit.KindMap {
		what = "map"
	}
	if size > maxListByteLength {
		return trap("%s of %d bytes exceeds the limit of 2^28-1", what, size)
	}
	if err := c.check(ptr, size, elem.align, what); err != nil {
		return err
	}
	if pl.op == opBytes {
		if err := c.charge(uint64(n)); err != nil {
			return err
		}
		b := make([]byte, n)
		copy(b, c.mem[ptr:])
		setBytes(dst, b)
		return nil
	}
	if err := c.chargeList(n, pl.elem.host); err != nil {
		return err
	}
	data := makeSlice(dst, pl.goType, int(n))
	for i := range int(n) {
		if err := c.loadGo(pl.elem, ptr+uint32(i)*elem.size, data.index(i, pl.elemSize)); err != nil {
			return err
		}
	}
	return nil
}

// setDynamic stores the dynamic value v in the Go value at dst, whose type
// (any or the matching wit value type) compilePlan checked.
func setDynamic(pl *plan, dst goRef, v any) {
	if pl.isAny {
		set(dst, v)
		return
	}
	switch x := v.(type) {
	case wit.VariantValue:
		set(dst, x)
	case wit.OptionValue:
		set(dst, x)
	case wit.ResultValue:
		set(dst, x)
	}
}

// dynamic returns the Go value at src as a dynamic value.
func dynamic(pl *plan, src goRef) any {
	if pl.isAny {
		return get[any](src)
	}
	switch pl.goType {
	case variantValueType:
		return get[wit.VariantValue](src)
	case optionValueType:
		return get[wit.OptionValue](src)
	case resultValueType:
		return get[wit.ResultValue](src)
	}
	return valueAt(src, pl.goType).Interface()
}

// liftFlatGo lifts a value of plan pl's type from its flat core values f
// into the Go value at dst, as liftFlat.
func (c *call) liftFlatGo(pl *plan, f []uint64, dst goRef) error {
	t := pl.t
	switch pl.op {
	case opPrim:
		switch t.kind {
		case wit.KindBool:
			set(dst, uint32(f[0]) != 0)
		case wit.KindS8, wit.KindU8:
			set(dst, uint8(f[0]))
		case wit.KindS16, wit.KindU16:
			set(dst, uint16(f[0]))
		case wit.KindS32, wit.KindU32:
			set(dst, uint32(f[0]))
		case wit.KindS64, wit.KindU64:
			set(dst, f[0])
		case wit.KindF32:
			set(dst, f32(uint32(f[0])))
		case wit.KindF64:
			set(dst, f64(f[0]))
		case wit.KindChar:
			x := uint32(f[0])
			if !validChar(x) {
				return trap("invalid char %#x", x)
			}
			set(dst, x)
		case wit.KindString:
			s, err := c.loadString(uint32(f[0]), uint32(f[1]))
			if err != nil {
				return err
			}
			set(dst, s)
		}
		return nil
	case opEnum:
		disc := uint32(f[0])
		if disc >= t.n {
			return trap("invalid %s discriminant %d (%d cases)", t.kind, disc, len(t.cases))
		}
		setUint(dst, pl.goSize, uint64(disc))
		return nil
	case opFlags:
		bits := uint64(uint32(f[0]))
		if len(f) > 1 {
			bits |= uint64(uint32(f[1])) << 32
		}
		set(dst, bits&flagMask(t.n))
		return nil
	case opBytes, opList:
		return c.loadListGo(pl, uint32(f[0]), uint32(f[1]), dst)
	case opFixed:
		k := len(pl.elem.t.flat)
		for i := range int(t.n) {
			if err := c.liftFlatGo(pl.elem, f[i*k:(i+1)*k], dst.index(i, pl.elemSize)); err != nil {
				return err
			}
		}
		return nil
	case opRecord:
		for i := range pl.fields {
			fl := &pl.fields[i]
			if err := c.liftFlatGo(fl.plan, f[fl.f.flat:fl.f.flat+len(fl.f.t.flat)], dst.field(fl.goOff)); err != nil {
				return err
			}
		}
		return nil
	case opOption:
		disc := uint32(f[0])
		if disc >= 2 {
			return trap("invalid %s discriminant %d (%d cases)", t.kind, disc, len(t.cases))
		}
		if disc == 0 {
			setPtr(dst, goRef{})
			return nil
		}
		v := c.payload(pl)
		if err := c.liftFlatGo(pl.elem, f[1:1+len(pl.elem.t.flat)], v); err != nil {
			return err
		}
		setPtr(dst, v)
		return nil
	case opHandle:
		r, err := c.liftResource(t, uint32(f[0]))
		if err != nil {
			return err
		}
		setResource(dst, r)
		return nil
	}
	v, err := c.liftFlat(t, f)
	if err != nil {
		return err
	}
	setDynamic(pl, dst, v)
	return nil
}

// storeGo lowers the Go value at src into memory at p, as store. Storing
// a string or list calls realloc, which refreshes c.mem, so c.mem is
// re-read after every such step.
func (c *call) storeGo(pl *plan, src goRef, p uint32) error {
	t := pl.t
	switch pl.op {
	case opPrim:
		if t.kind == wit.KindString {
			ptr, n, err := c.lowerString(t, getString(src))
			if err != nil {
				return err
			}
			put32(c.mem, p, ptr)
			put32(c.mem, p+4, n)
			return nil
		}
		bits, err := primBits(t, src)
		if err != nil {
			return err
		}
		putN(c.mem, p, t.size, bits)
		return nil
	case opEnum:
		disc, err := enumDisc(pl, src)
		if err != nil {
			return err
		}
		c.storeDisc(t, p, disc)
		return nil
	case opFlags:
		bits, err := flagBitsGo(t, src)
		if err != nil {
			return err
		}
		putN(c.mem, p, t.size, bits)
		return nil
	case opBytes, opList:
		ptr, n, err := c.lowerListGo(pl, src)
		if err != nil {
			return err
		}
		put32(c.mem, p, ptr)
		put32(c.mem, p+4, n)
		return nil
	case opFixed:
		for i := range int(t.n) {
			if err := c.storeGo(pl.elem, src.index(i, pl.elemSize), p+uint32(i)*t.elem.size); err != nil {
				return at(err, "list element %d", i)
			}
		}
		return nil
	case opRecord:
		for i := range pl.fields {
			f := &pl.fields[i]
			if err := c.storeGo(f.plan, src.field(f.goOff), p+f.f.offset); err != nil {
				return at(err, "%s", fieldName(t, i))
			}
		}
		return nil
	case opOption:
		v := getPtr(src)
		if v.isNil() {
			c.storeDisc(t, p, 0)
			return nil
		}
		c.storeDisc(t, p, 1)
		return at(c.storeGo(pl.elem, v, p+t.payload), "some")
	case opHandle:
		h, err := c.lowerResource(t, getResource(src))
		if err != nil {
			return err
		}
		put32(c.mem, p, h)
		return nil
	}
	return c.store(t, dynamic(pl, src), p)
}

// lowerListGo stores the elements of the slice at src into a fresh
// allocation, as lowerList.
func (c *call) lowerListGo(pl *plan, src goRef) (ptr, n uint32, err error) {
	t := pl.t
	e := t.elem
	if pl.op == opBytes {
		b := getBytes(src)
		if len(b) > reallocMax {
			return 0, 0, badValue(t, "list of %d bytes", len(b))
		}
		if ptr, err = c.realloc(0, 0, 1, uint32(len(b))); err != nil {
			return 0, 0, err
		}
		copy(c.mem[ptr:], b)
		return ptr, uint32(len(b)), nil
	}
	data, count := getSlice(src)
	size := uint64(count) * uint64(e.size)
	if size > reallocMax {
		return 0, 0, badValue(t, "list of %d bytes", size)
	}
	if ptr, err = c.realloc(0, 0, e.align, uint32(size)); err != nil {
		return 0, 0, err
	}
	for i := range count {
		if err := c.storeGo(pl.elem, data.index(i, pl.elemSize), ptr+uint32(i)*e.size); err != nil {
			return 0, 0, at(err, "list element %d", i)
		}
	}
	return ptr, uint32(count), nil
}

// lowerFlatGo lowers the Go value at src into exactly len(t.flat) core
// values in dst, as lowerFlat.
func (c *call) lowerFlatGo(pl *plan, src goRef, dst []uint64) error {
	t := pl.t
	switch pl.op {
	case opPrim:
		if t.kind == wit.KindString {
			ptr, n, err := c.lowerString(t, getString(src))
			if err != nil {
				return err
			}
			dst[0], dst[1] = uint64(ptr), uint64(n)
			return nil
		}
		bits, err := primBits(t, src)
		if err != nil {
			return err
		}
		dst[0] = bits
		return nil
	case opEnum:
		disc, err := enumDisc(pl, src)
		if err != nil {
			return err
		}
		dst[0] = uint64(disc)
		return nil
	case opFlags:
		bits, err := flagBitsGo(t, src)
		if err != nil {
			return err
		}
		dst[0] = uint64(uint32(bits))
		if len(dst) > 1 {
			dst[1] = bits >> 32
		}
		return nil
	case opBytes, opList:
		ptr, n, err := c.lowerListGo(pl, src)
		if err != nil {
			return err
		}
		dst[0], dst[1] = uint64(ptr), uint64(n)
		return nil
	case opFixed:
		k := len(pl.elem.t.flat)
		for i := range int(t.n) {
			if err := c.lowerFlatGo(pl.elem, src.index(i, pl.elemSize), dst[i*k:(i+1)*k]); err != nil {
				return at(err, "list element %d", i)
			}
		}
		return nil
	case opRecord:
		for i := range pl.fields {
			f := &pl.fields[i]
			if err := c.lowerFlatGo(f.plan, src.field(f.goOff), dst[f.f.flat:f.f.flat+len(f.f.t.flat)]); err != nil {
				return at(err, "%s", fieldName(t, i))
			}
		}
		return nil
	case opOption:
		rest := dst[1:]
		if v := getPtr(src); !v.isNil() {
			dst[0] = 1
			n := len(pl.elem.t.flat)
			if err := c.lowerFlatGo(pl.elem, v, rest[:n]); err != nil {
				return at(err, "some")
			}
			rest = rest[n:]
		} else {
			dst[0] = 0
		}
		clear(rest)
		return nil
	case opHandle:
		h, err := c.lowerResource(t, getResource(src))
		if err != nil {
			return err
		}
		dst[0] = uint64(h)
		return nil
	}
	return c.lowerFlat(t, dynamic(pl, src), dst)
}

// primBits reads the Go value at src of primitive type t (not string) and
// returns its flat core value, as scalarBits.
func primBits(t *Type, src goRef) (uint64, error) {
	switch t.kind {
	case wit.KindBool:
		if getBool(src) {
			return 1, nil
		}
		return 0, nil
	case wit.KindS8:
		return uint64(uint32(int32(get[int8](src)))), nil
	case wit.KindU8:
		return uint64(get[uint8](src)), nil
	case wit.KindS16:
		return uint64(uint32(int32(get[int16](src)))), nil
	case wit.KindU16:
		return uint64(get[uint16](src)), nil
	case wit.KindS32, wit.KindU32:
		return uint64(get[uint32](src)), nil
	case wit.KindS64, wit.KindU64:
		return get[uint64](src), nil
	case wit.KindF32:
		return uint64(f32Bits(get[float32](src))), nil
	case wit.KindF64:
		return f64Bits(get[float64](src)), nil
	}
	// char
	x := get[uint32](src)
	if !validChar(x) {
		return 0, badValue(t, "invalid char %#x", int32(x))
	}
	return uint64(x), nil
}

// enumDisc reads the case index at src and checks it names a case.
func enumDisc(pl *plan, src goRef) (uint32, error) {
	x := getUint(src, pl.goSize)
	if x >= uint64(pl.t.n) {
		return 0, badValue(pl.t, "case index %d", x)
	}
	return uint32(x), nil
}

// flagBitsGo reads the flags at src and checks no bits beyond t's flags
// are set.
func flagBitsGo(t *Type, src goRef) (uint64, error) {
	x := get[uint64](src)
	if x&^flagMask(t.n) != 0 {
		return 0, badValue(t, "flags %#x with bits beyond the %d flags", x, t.n)
	}
	return x, nil
}
