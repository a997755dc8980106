package ast

// Primitive is a primitive value type.
type Primitive uint8

const (
	PrimBool Primitive = iota + 1
	PrimS8
	PrimU8
	PrimS16
	PrimU16
	PrimS32
	PrimU32
	PrimS64
	PrimU64
	PrimF32
	PrimF64
	PrimChar
	PrimString
)

func (p Primitive) String() string {
	switch p {
	case PrimBool:
		return "bool"
	case PrimS8:
		return "s8"
	case PrimU8:
		return "u8"
	case PrimS16:
		return "s16"
	case PrimU16:
		return "u16"
	case PrimS32:
		return "s32"
	case PrimU32:
		return "u32"
	case PrimS64:
		return "s64"
	case PrimU64:
		return "u64"
	case PrimF32:
		return "f32"
	case PrimF64:
		return "f64"
	case PrimChar:
		return "char"
	case PrimString:
		return "string"
	}
	return "invalid primitive"
}

// ValType is a value type: a primitive when Prim is non-zero, otherwise
// the type at index Idx of the current type index space.
type ValType struct {
	Prim Primitive
	Idx  uint32
}

// IsPrim reports whether t is a primitive rather than a type index.
func (t ValType) IsPrim() bool { return t.Prim != 0 }

// TypeDef is a component-level type definition. The concrete types are
// Primitive, *Record, *Variant, *List, *Tuple, *Flags, *Enum, *Option,
// *Result, *Own, *Borrow, *FuncType, *ComponentType, *InstanceType and
// *ResourceType.
type TypeDef interface{ isTypeDef() }

// NamedType is a labelled value type: a record field or function
// parameter.
type NamedType struct {
	Name string
	Type ValType
}

// Record is (record (field ...)+).
type Record struct{ Fields []NamedType }

// Case is a variant case; Type is nil for a payload-less case.
type Case struct {
	Name string
	Type *ValType
}

// Variant is (variant (case ...)+).
type Variant struct{ Cases []Case }

// List is (list Elem).
// List is (list Elem), or with Len > 0 the fixed-length (list Elem Len).
type List struct {
	Elem ValType
	Len  uint32
}

// Map is (map Key Value).
type Map struct{ Key, Value ValType }

// Tuple is (tuple Types...).
type Tuple struct{ Types []ValType }

// Flags is (flags Names...).
type Flags struct{ Names []string }

// Enum is (enum Names...).
type Enum struct{ Names []string }

// Option is (option Type).
type Option struct{ Type ValType }

// Result is (result Ok? (error Err)?); nil means no payload.
type Result struct{ Ok, Err *ValType }

// Own is an owning handle to resource type TypeIdx.
type Own struct{ TypeIdx uint32 }

// Borrow is a borrowed handle to resource type TypeIdx.
type Borrow struct{ TypeIdx uint32 }

// FuncType is a component function type. Result is nil when the function
// returns nothing.
type FuncType struct {
	Params []NamedType
	Result *ValType
}

// ResourceType defines a new resource type. Rep is always i32 today;
// Dtor is the optional core function index of the destructor.
type ResourceType struct {
	Rep  CoreValType
	Dtor *uint32
}

// ComponentType is (component Decls...). Its declarators see a fresh type
// index space (and fresh core type index space) that CoreType, Type, Alias
// (type sorts), Import and ExportDecl declarators append to.
type ComponentType struct{ Decls []Decl }

// InstanceType is (instance Decls...); like ComponentType but never
// contains imports.
type InstanceType struct{ Decls []Decl }

// Decl is a declarator inside a ComponentType or InstanceType. The
// concrete types are *CoreType, *Type, *Alias, *Import and *ExportDecl.
// (Offsets inside declarators are set like those of definitions.)
type Decl interface{ isDecl() }

// ExportDecl declares an export of a component or instance type.
type ExportDecl struct {
	Name   string
	Attrs  NameAttrs
	Desc   ExternDesc
	Offset int
}

// ExternKind is the kind of an imported or exported item.
type ExternKind uint8

const (
	ExternCoreModule ExternKind = iota + 1
	ExternFunc
	ExternType
	ExternComponent
	ExternInstance
)

func (k ExternKind) String() string {
	switch k {
	case ExternCoreModule:
		return "core module"
	case ExternFunc:
		return "func"
	case ExternType:
		return "type"
	case ExternComponent:
		return "component"
	case ExternInstance:
		return "instance"
	}
	return "invalid extern kind"
}

// TypeBound bounds an imported or exported type.
type TypeBound uint8

const (
	// BoundEq: the type equals type TypeIdx.
	BoundEq TypeBound = iota + 1
	// BoundSubResource: the type is a fresh abstract resource type.
	BoundSubResource
)

// ExternDesc describes an imported or exported item (externtype).
// TypeIdx is a core type index for ExternCoreModule (a module type), a
// type index for ExternFunc/ExternComponent/ExternInstance, and for
// ExternType with BoundEq the type it equals.
type ExternDesc struct {
	Kind    ExternKind
	TypeIdx uint32
	Bound   TypeBound // ExternType only
}

// Sort returns the index space an item of this kind lives in.
func (d ExternDesc) Sort() Sort {
	switch d.Kind {
	case ExternCoreModule:
		return SortCoreModule
	case ExternFunc:
		return SortFunc
	case ExternType:
		return SortType
	case ExternComponent:
		return SortComponent
	case ExternInstance:
		return SortInstance
	}
	return 0
}

func (Primitive) isTypeDef()      {}
func (*Record) isTypeDef()        {}
func (*Variant) isTypeDef()       {}
func (*List) isTypeDef()          {}
func (*Map) isTypeDef()           {}
func (*Tuple) isTypeDef()         {}
func (*Flags) isTypeDef()         {}
func (*Enum) isTypeDef()          {}
func (*Option) isTypeDef()        {}
func (*Result) isTypeDef()        {}
func (*Own) isTypeDef()           {}
func (*Borrow) isTypeDef()        {}
func (*FuncType) isTypeDef()      {}
func (*ComponentType) isTypeDef() {}
func (*InstanceType) isTypeDef()  {}
func (*ResourceType) isTypeDef()  {}

func (*CoreType) isDecl()   {}
func (*Type) isDecl()       {}
func (*Alias) isDecl()      {}
func (*Import) isDecl()     {}
func (*ExportDecl) isDecl() {}
