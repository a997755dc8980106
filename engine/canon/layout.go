package canon

import (
	"fmt"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/wit"
)

// Limits from the canonical ABI.
const (
	// maxElemSize bounds elem_size of any valid type (component validation).
	maxElemSize = 1 << 28
	// maxStringByteLength bounds the bytes of a lifted string
	// (MAX_STRING_BYTE_LENGTH).
	maxStringByteLength = 1<<28 - 1
	// maxListByteLength bounds the bytes of a lifted list
	// (MAX_LIST_BYTE_LENGTH).
	maxListByteLength = 1<<28 - 1
	// reallocMax bounds any size passed to realloc (REALLOC_I32_MAX).
	reallocMax = 1<<32 - 1
	// maxFlags is the most flags mur-go supports: the spec allows 32; wit
	// allows 64, laid out as the earlier spec did (an i32 per 32 flags).
	maxFlags = 64
	// flatLimit bounds a Type's flattening. A value of more flat values
	// than this is never passed flat (functions pass at most MaxFlatParams),
	// so its flattening is cut at flatLimit+1 values instead of being spelt
	// out: a fixed-length list of 2^28-1 bytes would otherwise flatten to
	// 2^28 core values, built eagerly from a type any component can define.
	flatLimit = 64
)

// Type is a WIT value type with its canonical ABI layout precomputed, so
// that lifting and lowering its values does no layout work. Build it with
// NewType (or NewFunc for a whole signature); it is immutable and safe for
// concurrent use.
type Type struct {
	wit   wit.Type
	kind  wit.Kind
	size  uint32
	align uint32
	flat  []api.ValueType
	// memory is set when a value needs linear memory to be lifted or
	// lowered flat (the type contains a string or list).
	memory bool

	// elem is the element of a list or fixed-length list, or of a map the
	// tuple<key, value> it is passed as.
	elem   *Type
	fields []field // record and tuple fields
	// cases holds the payload type of each case of a variant, option
	// (none, some) or result (ok, error); nil for a case without payload.
	cases []*Type
	// units holds, for variants, options and results, the Go value of each
	// case without payload, boxed once so lifting one does not allocate.
	units    []any
	discSize uint32 // variant, enum, option, result: bytes of the discriminant
	payload  uint32 // offset of the payload from the start of the variant
	n        uint32 // number of enum cases or flags, or fixed-length list elements
	resource *wit.ResourceType
	// host is what lifting one value costs on the host besides the
	// contents of its strings and lists (dynamicHost).
	host uint64
}

// field is a record or tuple field (or a function parameter) placed in the
// containing layout.
type field struct {
	name   string
	t      *Type
	offset uint32 // byte offset in memory
	flat   int    // index of the first flat value
}

// NewType computes the layout of t. It fails on types the component model
// does not allow: empty records, tuples, variants, enums and flags, more
// than 64 flags, and types whose size reaches 2^28 bytes.
func NewType(t wit.Type) (*Type, error) {
	return newBuilder().build(t)
}

// builder computes layouts, sharing the layout of a type value that occurs
// more than once (as named types do) instead of recomputing it.
type builder struct {
	seen map[wit.Type]*Type
}

func newBuilder() *builder { return &builder{seen: map[wit.Type]*Type{}} }

func (b *builder) build(t wit.Type) (*Type, error) {
	switch t.(type) {
	case nil:
		return nil, fmt.Errorf("canon: nil type")
	case wit.Prim, *wit.List, *wit.FixedList, *wit.Map, *wit.Record, *wit.Tuple, *wit.Variant, *wit.Enum,
		*wit.Option, *wit.Result, *wit.Flags, *wit.Own, *wit.Borrow:
	default:
		return nil, fmt.Errorf("canon: unsupported type %T", t)
	}
	if lt := b.seen[t]; lt != nil {
		return lt, nil
	}
	lt := &Type{wit: t, kind: t.Kind()}
	var err error
	switch t := t.(type) {
	case wit.Prim:
		err = lt.setPrim()
	case *wit.List:
		lt.elem, err = b.build(t.Elem)
		lt.size, lt.align, lt.memory = 8, 4, true
		lt.flat = []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}
	case *wit.FixedList:
		if lt.elem, err = b.build(t.Elem); err == nil {
			err = lt.setFixedList(t.Len)
		}
	case *wit.Map:
		if t.Key == nil || t.Value == nil {
			return nil, fmt.Errorf("canon: map without a key or value type")
		}
		// A map is list<tuple<key, value>> (despecialize).
		lt.elem, err = b.build(&wit.Tuple{Types: []wit.Type{t.Key, t.Value}})
		lt.size, lt.align, lt.memory = 8, 4, true
		lt.flat = []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}
	case *wit.Record:
		fs := make([]field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i].name = f.Name
			if fs[i].t, err = b.build(f.Type); err != nil {
				return nil, fmt.Errorf("%w (in field %q)", err, f.Name)
			}
		}
		err = lt.setRecord(fs)
	case *wit.Tuple:
		fs := make([]field, len(t.Types))
		for i, e := range t.Types {
			fs[i].name = fmt.Sprint(i)
			if fs[i].t, err = b.build(e); err != nil {
				return nil, err
			}
		}
		err = lt.setRecord(fs)
	case *wit.Variant:
		cs := make([]wit.Type, len(t.Cases))
		for i, c := range t.Cases {
			cs[i] = c.Type
		}
		err = b.setVariant(lt, cs)
	case *wit.Enum:
		err = b.setVariant(lt, make([]wit.Type, len(t.Cases)))
		lt.n = uint32(len(t.Cases))
	case *wit.Option:
		if t.Elem == nil {
			return nil, fmt.Errorf("canon: option without a payload type")
		}
		err = b.setVariant(lt, []wit.Type{nil, t.Elem})
	case *wit.Result:
		err = b.setVariant(lt, []wit.Type{t.OK, t.Err})
	case *wit.Flags:
		err = lt.setFlags(len(t.Names))
	case *wit.Own:
		err = lt.setHandle(t.Resource)
	case *wit.Borrow:
		err = lt.setHandle(t.Resource)
	}
	if err != nil {
		return nil, err
	}
	if lt.size >= maxElemSize {
		return nil, fmt.Errorf("canon: type %s is %d bytes, the limit is 2^28", TypeString(t), lt.size)
	}
	if len(lt.flat) > flatLimit {
		lt.flat = lt.flat[: flatLimit+1 : flatLimit+1]
	}
	lt.host = dynamicHost(lt)
	b.seen[t] = lt
	return lt, nil
}

// WIT returns the type this layout was computed for.
func (t *Type) WIT() wit.Type { return t.wit }

// Size is the type's elem_size: its size in memory, including padding.
func (t *Type) Size() uint32 { return t.size }

// Align is the type's alignment in memory.
func (t *Type) Align() uint32 { return t.align }

// Flat is the type's flattening into core value types. The slice is shared;
// do not modify it. A flattening of more than 64 values is cut after 65:
// such a value is only ever passed in memory, and Lift and Lower refuse it.
func (t *Type) Flat() []api.ValueType { return t.flat }

func (t *Type) setPrim() error {
	i32, i64 := api.ValueTypeI32, api.ValueTypeI64
	switch t.kind {
	case wit.KindBool, wit.KindS8, wit.KindU8:
		t.size, t.flat = 1, []api.ValueType{i32}
	case wit.KindS16, wit.KindU16:
		t.size, t.flat = 2, []api.ValueType{i32}
	case wit.KindS32, wit.KindU32, wit.KindChar:
		t.size, t.flat = 4, []api.ValueType{i32}
	case wit.KindS64, wit.KindU64:
		t.size, t.flat = 8, []api.ValueType{i64}
	case wit.KindF32:
		t.size, t.flat = 4, []api.ValueType{api.ValueTypeF32}
	case wit.KindF64:
		t.size, t.flat = 8, []api.ValueType{api.ValueTypeF64}
	case wit.KindString:
		t.size, t.align, t.memory = 8, 4, true
		t.flat = []api.ValueType{i32, i32}
		return nil
	default:
		return fmt.Errorf("canon: unknown primitive type %v", t.kind)
	}
	t.align = t.size
	return nil
}

// setRecord lays fields out in order, each at its alignment
// (elem_size_record, alignment_record, flatten_record).
func (t *Type) setRecord(fs []field) error {
	if len(fs) == 0 {
		return fmt.Errorf("canon: %s has no fields", t.kind)
	}
	size, align := layoutFields(fs)
	if size >= maxElemSize {
		return fmt.Errorf("canon: %s is too large", t.kind)
	}
	t.fields, t.size, t.align = fs, uint32(size), align
	for _, f := range fs {
		t.flat = append(t.flat, f.t.flat...)
		t.memory = t.memory || f.t.memory
	}
	return nil
}

// setFixedList lays out n elements inline, as a tuple of n elements
// (elem_size_list, alignment_list and flatten_list with a length).
func (t *Type) setFixedList(n uint32) error {
	if n == 0 {
		return fmt.Errorf("canon: fixed-length list of length 0")
	}
	size := uint64(n) * uint64(t.elem.size)
	if size >= maxElemSize {
		return fmt.Errorf("canon: fixed-length list of %d bytes, the limit is 2^28", size)
	}
	t.n, t.size, t.align, t.memory = n, uint32(size), t.elem.align, t.elem.memory
	// Repeat the element's flattening only as far as flatLimit+1 values:
	// beyond, the list is never passed flat.
	for i := uint32(0); i < n && len(t.flat) <= flatLimit; i++ {
		t.flat = append(t.flat, t.elem.flat...)
	}
	return nil
}

// flatOK checks that values of t can be passed flat: its flattening was not
// cut at flatLimit.
func (t *Type) flatOK() error {
	if len(t.flat) > flatLimit {
		return fmt.Errorf("canon: %s flattens to more than %d core values; pass it in memory", TypeString(t.wit), flatLimit)
	}
	return nil
}

// layoutFields assigns each field its memory offset and first flat index
// and returns the padded size and alignment of the whole.
func layoutFields(fs []field) (size uint64, align uint32) {
	align = 1
	flat := 0
	for i := range fs {
		f := &fs[i]
		size = alignTo(size, f.t.align)
		f.offset = uint32(min(size, maxElemSize))
		f.flat = flat
		size += uint64(f.t.size)
		flat += len(f.t.flat)
		align = max(align, f.t.align)
	}
	return alignTo(size, align), align
}

// setVariant lays out a variant-like type from the payload type of each case
// (elem_size_variant, alignment_variant, flatten_variant).
func (b *builder) setVariant(t *Type, cases []wit.Type) error {
	if len(cases) == 0 {
		return fmt.Errorf("canon: %s has no cases", t.kind)
	}
	t.cases = make([]*Type, len(cases))
	t.discSize = discriminantSize(len(cases))
	caseAlign, caseSize := uint32(1), uint32(0)
	var payload []api.ValueType
	for i, c := range cases {
		if c == nil {
			if t.kind != wit.KindEnum {
				if t.units == nil {
					t.units = make([]any, len(cases))
				}
				t.units[i] = variantValue(t, uint32(i), nil)
			}
			continue
		}
		ct, err := b.build(c)
		if err != nil {
			return err
		}
		t.cases[i] = ct
		caseAlign = max(caseAlign, ct.align)
		caseSize = max(caseSize, ct.size)
		t.memory = t.memory || ct.memory
		for j, ft := range ct.flat {
			if j < len(payload) {
				payload[j] = join(payload[j], ft)
			} else {
				payload = append(payload, ft)
			}
		}
	}
	t.payload = uint32(alignTo(uint64(t.discSize), caseAlign))
	t.align = max(t.discSize, caseAlign)
	t.size = uint32(alignTo(uint64(t.payload)+uint64(caseSize), t.align))
	t.flat = append([]api.ValueType{api.ValueTypeI32}, payload...)
	return nil
}

// discriminantSize is the byte size of discriminant_type: the smallest
// unsigned integer that numbers every case.
func discriminantSize(cases int) uint32 {
	switch {
	case cases <= 1<<8:
		return 1
	case cases <= 1<<16:
		return 2
	}
	return 4
}

// join is the least core type both a and b can be bit-cast to.
func join(a, b api.ValueType) api.ValueType {
	if a == b {
		return a
	}
	if (a == api.ValueTypeI32 && b == api.ValueTypeF32) || (a == api.ValueTypeF32 && b == api.ValueTypeI32) {
		return api.ValueTypeI32
	}
	return api.ValueTypeI64
}

// setFlags packs flags into the smallest of u8, u16, u32; beyond 32 flags,
// into one u32 (and one flat i32) per 32 flags.
func (t *Type) setFlags(n int) error {
	if n == 0 || n > maxFlags {
		return fmt.Errorf("canon: flags with %d names (want 1 to %d)", n, maxFlags)
	}
	t.n = uint32(n)
	switch {
	case n <= 8:
		t.size = 1
	case n <= 16:
		t.size = 2
	default:
		t.size = 4 * uint32((n+31)/32)
	}
	t.align = min(t.size, 4)
	for range (n + 31) / 32 {
		t.flat = append(t.flat, api.ValueTypeI32)
	}
	return nil
}

func (t *Type) setHandle(r *wit.ResourceType) error {
	if r == nil {
		return fmt.Errorf("canon: %s without a resource type", t.kind)
	}
	t.resource = r
	t.size, t.align = 4, 4
	t.flat = []api.ValueType{api.ValueTypeI32}
	return nil
}

func alignTo(n uint64, align uint32) uint64 {
	a := uint64(align)
	return (n + a - 1) / a * a
}
