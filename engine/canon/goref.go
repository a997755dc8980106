package canon

import (
	"reflect"
	"unsafe"

	"github.com/mur-go/mur/engine/wit"
)

// This is the only file of the typed path (codec.go, codecrun.go,
// funccodec.go) that uses package unsafe: every read or write of a Go value
// goes through the helpers below, so that the rest of the code never does
// pointer arithmetic or conversions of its own. It uses unsafe rather than
// reflect.Value so that a call does no reflection beyond allocating slices
// and option payloads: a field is an offset added to an address, not a
// reflect.Value.Field call with its checks and flag bookkeeping.
//
// Why this is safe:
//
//   - A goRef is only ever created from a *T whose dynamic type the caller
//     checked (refOf compares it with the codec's Go type with reflect), from
//     a fresh allocation of the type a plan was compiled for (newValue,
//     makeSlice), or from another goRef with field/index, below.
//   - Plans are compiled from reflect.Type (compilePlan), so the plan that
//     receives a goRef describes exactly the Go type it points at: field
//     offsets are reflect.StructField.Offset of that struct type, element
//     strides reflect.Type.Size of that slice's element type, and each
//     scalar access has the size of the Go kind the plan was compiled for
//     (a named type has the layout of its kind).
//   - index is only called with i < the length of the slice or array.
//   - goRef is a struct holding an unsafe.Pointer, so the garbage
//     collector sees every goRef held in a local and keeps its object
//     alive; goRefs are kept only in locals and arguments, and field and
//     index never step outside the object they start in (no past-the-end
//     pointers). Pointers (strings, slices, *T, any) are written with
//     typed assignments, so write barriers apply.
//   - Reading a slice header as a []byte (getSlice) and writing an empty
//     one (makeSlice) relies only on all slice headers sharing one layout.
//   - Guest memory is never accessed here: it is read and written through
//     the bounds-checked []byte of the call, as on the dynamic path.
type goRef struct{ p unsafe.Pointer }

func (r goRef) isNil() bool { return r.p == nil }

// refOf returns the address x holds when x is a *T of the given pointer
// type.
func refOf(x any, ptrType reflect.Type) (goRef, bool) {
	if x == nil || reflect.TypeOf(x) != ptrType {
		return goRef{}, false
	}
	p := reflect.ValueOf(x).UnsafePointer()
	return goRef{p}, p != nil
}

// field is the address of the member at offset off of the struct at r.
func (r goRef) field(off uintptr) goRef { return goRef{unsafe.Add(r.p, off)} }

// index is the address of element i of an array of elements of the given
// size starting at r.
func (r goRef) index(i int, size uintptr) goRef {
	return goRef{unsafe.Add(r.p, uintptr(i)*size)}
}

// get and set access a Go value of type T at r.
func get[T any](r goRef) T     { return *(*T)(r.p) }
func set[T any](r goRef, v T)  { *(*T)(r.p) = v }
func getBool(r goRef) bool     { return get[bool](r) }
func getString(r goRef) string { return get[string](r) }

// getUint reads an unsigned integer of size bytes.
func getUint(r goRef, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(get[uint8](r))
	case 2:
		return uint64(get[uint16](r))
	case 4:
		return uint64(get[uint32](r))
	}
	return get[uint64](r)
}

// setUint writes an unsigned integer of size bytes.
func setUint(r goRef, size uintptr, v uint64) {
	switch size {
	case 1:
		set(r, uint8(v))
	case 2:
		set(r, uint16(v))
	case 4:
		set(r, uint32(v))
	default:
		set(r, v)
	}
}

// getPtr reads a *T; setPtr writes one.
func getPtr(r goRef) goRef    { return goRef{get[unsafe.Pointer](r)} }
func setPtr(r goRef, p goRef) { set(r, p.p) }

// getSlice reads the data pointer and length of a slice of any element
// type (all slice headers have the same layout).
func getSlice(r goRef) (goRef, int) {
	s := get[[]byte](r)
	return goRef{unsafe.Pointer(unsafe.SliceData(s))}, len(s)
}

// getBytes and setBytes access a slice whose element kind is uint8.
func getBytes(r goRef) []byte    { return get[[]byte](r) }
func setBytes(r goRef, b []byte) { set(r, b) }

func getResource(r goRef) wit.Resource    { return get[wit.Resource](r) }
func setResource(r goRef, v wit.Resource) { set(r, v) }

// newValue allocates a zero value of type t.
func newValue(t reflect.Type) goRef { return goRef{reflect.New(t).UnsafePointer()} }

// makeSlice stores a fresh zeroed slice of n elements in the slice of type
// t at r and returns its data pointer. The old contents are dropped, not
// reused, since the caller may still hold them.
func makeSlice(r goRef, t reflect.Type, n int) goRef {
	if n == 0 {
		// Empty but not nil, as the dynamic path's lists are; a zero-size
		// allocation does not allocate.
		set(r, make([]byte, 0))
		return goRef{}
	}
	v := reflect.NewAt(t, r.p).Elem()
	v.SetZero()
	v.Grow(n)
	v.SetLen(n)
	return goRef{v.UnsafePointer()}
}

// valueAt is the Go value of type t at r, for the dynamic fallback.
func valueAt(r goRef, t reflect.Type) reflect.Value {
	return reflect.NewAt(t, r.p).Elem()
}
