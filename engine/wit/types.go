// Package wit is the value-type model of the component model as the rest of
// mur-go sees it: resolved types (no indices), the Go representation of values
// of those types, and printing in WIT syntax.
//
// Go representation of values, chosen so that a value is interpreted only
// together with its type:
//
//	bool                      bool
//	s8 s16 s32 s64            int8 int16 int32 int64
//	u8 u16 u32 u64            uint8 uint16 uint32 uint64
//	f32 f64                   float32 float64
//	char                      rune
//	string                    string
//	list<u8>                  []byte
//	list<T>                   []any
//	list<T, N>                []any of exactly N elements
//	map<K, V>                 []MapEntry, in the order the guest gave them
//	record, tuple             []any (fields in declaration order)
//	variant                   VariantValue
//	enum                      uint32 (case index)
//	option<T>                 OptionValue
//	result<T, E>              ResultValue
//	flags                     uint64 (bit i set = flag i set)
//	own<R>, borrow<R>         Resource
package wit

import "fmt"

// Kind identifies the shape of a Type.
type Kind uint8

const (
	KindBool Kind = iota + 1
	KindS8
	KindU8
	KindS16
	KindU16
	KindS32
	KindU32
	KindS64
	KindU64
	KindF32
	KindF64
	KindChar
	KindString
	KindList
	KindRecord
	KindTuple
	KindVariant
	KindEnum
	KindOption
	KindResult
	KindFlags
	KindOwn
	KindBorrow
	KindFixedList
	KindMap
)

var kindNames = [...]string{
	KindBool: "bool", KindS8: "s8", KindU8: "u8", KindS16: "s16", KindU16: "u16",
	KindS32: "s32", KindU32: "u32", KindS64: "s64", KindU64: "u64",
	KindF32: "f32", KindF64: "f64", KindChar: "char", KindString: "string",
	KindList: "list", KindRecord: "record", KindTuple: "tuple", KindVariant: "variant",
	KindEnum: "enum", KindOption: "option", KindResult: "result", KindFlags: "flags",
	KindOwn: "own", KindBorrow: "borrow", KindFixedList: "fixed-length list", KindMap: "map",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Type is a resolved component-model value type. Compare types with Equal,
// not ==, since structurally equal types may be distinct values.
type Type interface {
	Kind() Kind
}

// Prim is a primitive type: bool, the integers, floats, char and string.
type Prim Kind

// The primitive types.
const (
	Bool   = Prim(KindBool)
	S8     = Prim(KindS8)
	U8     = Prim(KindU8)
	S16    = Prim(KindS16)
	U16    = Prim(KindU16)
	S32    = Prim(KindS32)
	U32    = Prim(KindU32)
	S64    = Prim(KindS64)
	U64    = Prim(KindU64)
	F32    = Prim(KindF32)
	F64    = Prim(KindF64)
	Char   = Prim(KindChar)
	String = Prim(KindString)
)

func (p Prim) Kind() Kind { return Kind(p) }

// Named carries the name a type was exported under (e.g. "tool-input"), so
// printing can refer to it instead of spelling out its structure. Name is
// empty for anonymous types.
type Named struct {
	Name string
}

// TypeName returns the exported name of the type, or "".
func (n *Named) TypeName() string { return n.Name }

type List struct {
	Named
	Elem Type
}

func (*List) Kind() Kind { return KindList }

// FixedList is list<Elem, Len>: exactly Len elements (Len > 0), laid out
// inline like a tuple rather than behind a pointer.
type FixedList struct {
	Named
	Elem Type
	Len  uint32
}

func (*FixedList) Kind() Kind { return KindFixedList }

// Map is map<Key, Value>. The canonical ABI passes it as
// list<tuple<Key, Value>>: keys may repeat and order is kept.
type Map struct {
	Named
	Key, Value Type
}

func (*Map) Kind() Kind { return KindMap }

type Field struct {
	Name string
	Type Type
}

type Record struct {
	Named
	Fields []Field
}

func (*Record) Kind() Kind { return KindRecord }

type Tuple struct {
	Named
	Types []Type
}

func (*Tuple) Kind() Kind { return KindTuple }

// Case is a variant case; Type is nil for a case without a payload.
type Case struct {
	Name string
	Type Type
}

type Variant struct {
	Named
	Cases []Case
}

func (*Variant) Kind() Kind { return KindVariant }

type Enum struct {
	Named
	Cases []string
}

func (*Enum) Kind() Kind { return KindEnum }

type Option struct {
	Named
	Elem Type
}

func (*Option) Kind() Kind { return KindOption }

// Result is result<OK, Err>; either side may be nil (no payload).
type Result struct {
	Named
	OK  Type
	Err Type
}

func (*Result) Kind() Kind { return KindResult }

// Flags holds at most 64 flags (the component model allows 32).
type Flags struct {
	Named
	Names []string
}

func (*Flags) Kind() Kind { return KindFlags }

// ResourceType identifies a resource type. Identity is by pointer: two
// resource types are the same type only if they are the same *ResourceType.
// A host defines its resource types once and registers them with a linker
// (with their destructor); a component's own resource types are created by
// the engine.
type ResourceType struct {
	Name string
}

type Own struct {
	Named
	Resource *ResourceType
}

func (*Own) Kind() Kind { return KindOwn }

type Borrow struct {
	Named
	Resource *ResourceType
}

func (*Borrow) Kind() Kind { return KindBorrow }

// Param is a named function parameter.
type Param struct {
	Name string
	Type Type
}

// Func is a component function type. Result is nil when the function
// returns nothing.
type Func struct {
	Params []Param
	Result Type
}

// NameOf returns the exported name of t, or "" for anonymous and primitive types.
func NameOf(t Type) string {
	if n, ok := t.(interface{ TypeName() string }); ok {
		return n.TypeName()
	}
	return ""
}

// ExternKind is what a named import or export of a component is.
type ExternKind uint8

const (
	ExternFunc ExternKind = iota + 1
	ExternInstance
	ExternType
	ExternResource
	ExternComponent
	ExternModule
)

// Extern is one import or export as WIT sees it.
type Extern struct {
	Name string
	Kind ExternKind
	// Func is set for ExternFunc.
	Func *Func
	// Type is set for ExternType (the exported or imported value type).
	Type Type
	// Resource is set for ExternResource.
	Resource *ResourceType
	// Exports lists an instance's items in order (ExternInstance).
	Exports []Extern
}

// World is a component's surface: what it imports and what it exports.
type World struct {
	Imports []Extern
	Exports []Extern
}
