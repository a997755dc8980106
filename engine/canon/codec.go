package canon

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/mur-go/mur/engine/wit"
)

// The typed path: lifting straight into Go values and lowering straight
// from them, without the dynamic representation of package wit in
// between. A Codec is compiled once for a (WIT type, Go type) pair; calls
// then follow its plan, which holds everything reflection would otherwise
// look up (field offsets, element sizes, allocation types).
//
// Go types map to WIT types as component.Define documents:
//
//	bool, integers, floats  the Go kind of the same size (named types too)
//	char                    a Go int32 kind (rune)
//	string                  a Go string kind
//	list<u8>                a slice of a uint8 kind ([]byte), copied whole
//	list<T>                 []E, E mapping to T
//	list<T, N>              [N]E, E mapping to T
//	map<K, V>               []E, E a struct of two exported fields mapping
//	                        to K and V (wit.MapEntry holds both as any)
//	record, tuple           a struct with one exported field per member, in
//	                        order (names are not compared)
//	option<T>               *E, E mapping to T (nil is none)
//	enum                    an unsigned integer kind that holds every index
//	flags                   a uint64 kind (bit i is flag i)
//	own<R>, borrow<R>       wit.Resource
//	anything                any
//	variant                 wit.VariantValue (or any)
//	option<T>               wit.OptionValue (or *E, above)
//	result<T, E>            wit.ResultValue (or any)
//
// any, wit.VariantValue, wit.OptionValue and wit.ResultValue hold the
// dynamic value of their subtree, lifted and lowered by the dynamic path.
//
// Lifting writes into a Go value the caller provides (a *T); fields are
// overwritten, never merged, and slices and pointers are always freshly
// allocated, so values lifted earlier are not disturbed. If lifting fails
// the destination holds a partial value. Lifted strings may share one
// backing allocation (see call.stringBytes).

// Codec lifts and lowers values of one WIT type as values of one Go type.
// It is immutable and safe for concurrent use.
type Codec struct {
	t       *Type
	plan    *plan
	goType  reflect.Type
	ptrType reflect.Type
}

// NewCodec checks that Go type goType can represent values of WIT type t
// (see the table above) and compiles the codec.
func NewCodec(t wit.Type, goType reflect.Type) (*Codec, error) {
	lt, err := NewType(t)
	if err != nil {
		return nil, err
	}
	return newCodec(lt, goType)
}

// NewCodec compiles a codec for values of t as Go values of goType; see
// the package function NewCodec.
func (t *Type) NewCodec(goType reflect.Type) (*Codec, error) { return newCodec(t, goType) }

func newCodec(t *Type, goType reflect.Type) (*Codec, error) {
	if goType == nil {
		return nil, fmt.Errorf("canon: nil Go type for WIT %s", TypeString(t.wit))
	}
	p, err := compileRoot(t, goType)
	if err != nil {
		return nil, fmt.Errorf("canon: WIT %s as Go %s: %w", TypeString(t.wit), goType, err)
	}
	return &Codec{t: t, plan: p, goType: goType, ptrType: reflect.PointerTo(goType)}, nil
}

// Type returns the layout of the codec's WIT type.
func (cd *Codec) Type() *Type { return cd.t }

// GoType returns the codec's Go type.
func (cd *Codec) GoType() reflect.Type { return cd.goType }

// CodecError is a Go type that cannot represent a WIT type, found when
// compiling a codec.
type CodecError struct {
	// Path locates the mismatch, outermost first, e.g.
	// `record field "data" (Go field Data)`.
	Path []string
	// WIT and Go are the mismatched types at the end of Path.
	WIT, Go string
	// Reason says what the WIT type needs.
	Reason string
}

func (e *CodecError) Error() string {
	var b strings.Builder
	for _, p := range e.Path {
		b.WriteString(p)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "Go %s cannot represent WIT %s (%s)", e.Go, e.WIT, e.Reason)
	return b.String()
}

// op is what a plan does; primitives are told apart by the WIT kind.
type op uint8

const (
	opPrim    op = iota + 1 // bool, integers, floats, char, string
	opEnum                  // enum as an unsigned integer of goSize bytes
	opFlags                 // flags as uint64
	opBytes                 // list<u8> as a slice of a uint8 kind
	opList                  // list<T> as []E, map<K, V> as []struct{K; V}
	opFixed                 // list<T, N> as [N]E
	opRecord                // record or tuple as a struct
	opOption                // option<T> as *E
	opHandle                // own or borrow as wit.Resource
	opDynamic               // the dynamic value, converted from or to goType
)

// plan is the compiled form of one (WIT type, Go type) pair.
type plan struct {
	op     op
	t      *Type
	goType reflect.Type
	goSize uintptr
	// elem is the plan of a list element or an option payload; elemType
	// and elemSize are its Go type and size.
	elem     *plan
	elemType reflect.Type
	elemSize uintptr
	fields   []planField
	// isAny is set for opDynamic when goType is any itself, which needs no
	// conversion.
	isAny bool
	// host is what lifting one value costs on the host besides the
	// contents of its strings and lists (typedHost).
	host uint64
	// slab is, for an option, 1 + the index of the root's slab its
	// payload comes from, 0 for none; slabs are the root's (slab.go).
	slab  int
	slabs []slabSpec
}

// planField is a record or tuple member: its layout and its Go struct
// field's offset.
type planField struct {
	f     *field
	goOff uintptr
	plan  *plan
}

var (
	anyType          = reflect.TypeFor[any]()
	variantValueType = reflect.TypeFor[wit.VariantValue]()
	optionValueType  = reflect.TypeFor[wit.OptionValue]()
	resultValueType  = reflect.TypeFor[wit.ResultValue]()
	resourceType     = reflect.TypeFor[wit.Resource]()
)

// primKinds is the Go kind of each primitive WIT kind.
var primKinds = [...]reflect.Kind{
	wit.KindBool: reflect.Bool,
	wit.KindS8:   reflect.Int8, wit.KindU8: reflect.Uint8,
	wit.KindS16: reflect.Int16, wit.KindU16: reflect.Uint16,
	wit.KindS32: reflect.Int32, wit.KindU32: reflect.Uint32,
	wit.KindS64: reflect.Int64, wit.KindU64: reflect.Uint64,
	wit.KindF32: reflect.Float32, wit.KindF64: reflect.Float64,
	wit.KindChar: reflect.Int32, wit.KindString: reflect.String,
}

// compilePlan builds the plan for values of t as Go values of rt, or a
// *CodecError.
func compilePlan(t *Type, rt reflect.Type) (*plan, error) {
	p, err := buildPlan(t, rt)
	if err != nil {
		return nil, err
	}
	p.host = typedHost(p)
	return p, nil
}

// buildPlan is compilePlan without the host cost, which needs the
// finished plan.
func buildPlan(t *Type, rt reflect.Type) (*plan, error) {
	p := &plan{t: t, goType: rt, goSize: rt.Size()}
	bad := func(format string, args ...any) error {
		return &CodecError{WIT: TypeString(t.wit), Go: rt.String(), Reason: fmt.Sprintf(format, args...)}
	}
	switch rt {
	case anyType:
		p.op, p.isAny = opDynamic, true
		return p, nil
	case variantValueType, optionValueType, resultValueType:
		if (rt == variantValueType && t.kind != wit.KindVariant) ||
			(rt == optionValueType && t.kind != wit.KindOption) ||
			(rt == resultValueType && t.kind != wit.KindResult) {
			return nil, bad("%s holds only a WIT %s", rt, strings.ToLower(strings.TrimSuffix(rt.Name(), "Value")))
		}
		p.op = opDynamic
		return p, nil
	case resourceType:
		if t.kind != wit.KindOwn && t.kind != wit.KindBorrow {
			return nil, bad("wit.Resource holds only own and borrow handles")
		}
		p.op = opHandle
		return p, nil
	}
	switch t.kind {
	case wit.KindBool, wit.KindS8, wit.KindU8, wit.KindS16, wit.KindU16, wit.KindS32, wit.KindU32,
		wit.KindS64, wit.KindU64, wit.KindF32, wit.KindF64, wit.KindChar, wit.KindString:
		if want := primKinds[t.kind]; rt.Kind() != want {
			return nil, bad("want a Go %s kind", want)
		}
		p.op = opPrim
	case wit.KindEnum:
		switch rt.Kind() {
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		default:
			return nil, bad("want an unsigned integer kind for the case index")
		}
		if rt.Size() < 8 && uint64(t.n) > 1<<(8*rt.Size()) {
			return nil, bad("%d cases do not fit in %d bytes", t.n, rt.Size())
		}
		p.op = opEnum
	case wit.KindFlags:
		if rt.Kind() != reflect.Uint64 {
			return nil, bad("want a uint64 kind")
		}
		p.op = opFlags
	case wit.KindList:
		if rt.Kind() != reflect.Slice {
			return nil, bad("want a slice")
		}
		p.elemType, p.elemSize = rt.Elem(), rt.Elem().Size()
		if t.elem.kind == wit.KindU8 && rt.Elem().Kind() == reflect.Uint8 {
			p.op = opBytes
			return p, nil
		}
		elem, err := compilePlan(t.elem, rt.Elem())
		if err != nil {
			return nil, within(err, "list element")
		}
		p.op, p.elem = opList, elem
	case wit.KindOption:
		if rt.Kind() != reflect.Pointer {
			return nil, bad("want a pointer (nil is none) or wit.OptionValue")
		}
		p.elemType, p.elemSize = rt.Elem(), rt.Elem().Size()
		elem, err := compilePlan(t.cases[1], rt.Elem())
		if err != nil {
			return nil, within(err, "option payload")
		}
		p.op, p.elem = opOption, elem
	case wit.KindRecord, wit.KindTuple:
		if rt.Kind() != reflect.Struct {
			return nil, bad("want a struct")
		}
		if rt.NumField() != len(t.fields) {
			return nil, bad("the struct has %d fields, the %s %d", rt.NumField(), t.kind, len(t.fields))
		}
		p.op, p.fields = opRecord, make([]planField, len(t.fields))
		for i := range t.fields {
			f, sf := &t.fields[i], rt.Field(i)
			where := fmt.Sprintf("%s (Go field %s)", fieldName(t, i), sf.Name)
			if !sf.IsExported() {
				return nil, within(bad("Go field %s is not exported", sf.Name), where)
			}
			fp, err := compilePlan(f.t, sf.Type)
			if err != nil {
				return nil, within(err, where)
			}
			p.fields[i] = planField{f: f, goOff: sf.Offset, plan: fp}
		}
	case wit.KindVariant:
		return nil, bad("want wit.VariantValue or any")
	case wit.KindResult:
		return nil, bad("want wit.ResultValue or any")
	case wit.KindOwn, wit.KindBorrow:
		return nil, bad("want wit.Resource or any")
	case wit.KindFixedList:
		if rt.Kind() != reflect.Array || rt.Len() != int(t.n) {
			return nil, bad("want an array of %d elements", t.n)
		}
		p.elemType, p.elemSize = rt.Elem(), rt.Elem().Size()
		elem, err := compilePlan(t.elem, rt.Elem())
		if err != nil {
			return nil, within(err, "list element")
		}
		p.op, p.elem = opFixed, elem
	case wit.KindMap:
		// A map is passed as list<tuple<K, V>>, so it is lifted and
		// lowered as that list, each pair as a struct.
		if rt.Kind() != reflect.Slice || rt.Elem().Kind() != reflect.Struct {
			return nil, bad("want a slice of structs of two fields, key and value")
		}
		p.elemType, p.elemSize = rt.Elem(), rt.Elem().Size()
		elem, err := compilePlan(t.elem, rt.Elem())
		if err != nil {
			return nil, within(err, "map entry")
		}
		p.op, p.elem = opList, elem
	default:
		return nil, bad("unsupported")
	}
	return p, nil
}

// within prefixes a location to a *CodecError.
func within(err error, where string) error {
	if ce, ok := err.(*CodecError); ok {
		ce.Path = append([]string{where}, ce.Path...)
	}
	return err
}

// srcRef returns the address of the Go value to lower from x, which is a
// *T (no copy) or a T (copied, which allocates).
func srcRef(x any, goType, ptrType reflect.Type) (goRef, error) {
	if r, ok := refOf(x, ptrType); ok {
		return r, nil
	}
	if x != nil && reflect.TypeOf(x) == goType {
		v := reflect.New(goType)
		v.Elem().Set(reflect.ValueOf(x))
		return goRef{v.UnsafePointer()}, nil
	}
	got := typeName(x)
	if reflect.TypeOf(x) == ptrType {
		got = "nil " + got
	}
	return goRef{}, &ValueError{Want: fmt.Sprintf("%s or *%s", goType, goType), Got: got}
}

// dstRef returns the address to lift into from x, a non-nil *T.
func dstRef(x any, ptrType reflect.Type) (goRef, error) {
	if r, ok := refOf(x, ptrType); ok {
		return r, nil
	}
	return goRef{}, fmt.Errorf("canon: lift into %s, want a non-nil %s", typeName(x), ptrType)
}

func typeName(x any) string {
	if x == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", x)
}

// Lower lowers the Go value src (a *T, or a T, which costs a copy) into
// len(cd.Type().Flat()) core values appended to dst, as Type.Lower.
func (cd *Codec) Lower(ctx context.Context, opts *Options, src any, dst []uint64) ([]uint64, error) {
	if err := cd.t.flatOK(); err != nil {
		return dst, err
	}
	r, err := srcRef(src, cd.goType, cd.ptrType)
	if err != nil {
		return dst, err
	}
	c := newCall(ctx, opts)
	if cd.t.memory {
		if err := c.needMemory(); err != nil {
			return dst, err
		}
	}
	n := len(dst)
	dst = append(dst, make([]uint64, len(cd.t.flat))...)
	if err := c.lowerFlatGo(cd.plan, r, dst[n:]); err != nil {
		return dst[:n], err
	}
	return dst, nil
}

// Lift lifts a value from its flat core values into dst, a *T, as
// Type.Lift.
func (cd *Codec) Lift(ctx context.Context, opts *Options, flat []uint64, dst any) error {
	if err := cd.t.flatOK(); err != nil {
		return err
	}
	if len(flat) != len(cd.t.flat) {
		return fmt.Errorf("canon: lifting %s from %d flat values, want %d", TypeString(cd.t.wit), len(flat), len(cd.t.flat))
	}
	r, err := dstRef(dst, cd.ptrType)
	if err != nil {
		return err
	}
	c := newCall(ctx, opts)
	if cd.t.memory {
		if err := c.needMemory(); err != nil {
			return err
		}
	}
	c.startLift(cd.plan)
	return c.liftFlatGo(cd.plan, flat, r)
}

// Store lowers the Go value src (a *T or a T) into memory at ptr, as
// Type.Store.
func (cd *Codec) Store(ctx context.Context, opts *Options, src any, ptr uint32) error {
	r, err := srcRef(src, cd.goType, cd.ptrType)
	if err != nil {
		return err
	}
	c := newCall(ctx, opts)
	if err := c.needMemory(); err != nil {
		return err
	}
	if err := c.check(ptr, uint64(cd.t.size), cd.t.align, "value"); err != nil {
		return err
	}
	return c.storeGo(cd.plan, r, ptr)
}

// Load lifts the value stored at ptr into dst, a *T, as Type.Load.
func (cd *Codec) Load(ctx context.Context, opts *Options, ptr uint32, dst any) error {
	r, err := dstRef(dst, cd.ptrType)
	if err != nil {
		return err
	}
	c := newCall(ctx, opts)
	if err := c.needMemory(); err != nil {
		return err
	}
	if err := c.check(ptr, uint64(cd.t.size), cd.t.align, "value"); err != nil {
		return err
	}
	c.startLift(cd.plan)
	return c.loadGo(cd.plan, ptr, r)
}
