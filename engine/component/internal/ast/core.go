package ast

// CoreValType is a core WebAssembly value type. The values are the core
// binary encodings so they can be handed to core tooling unchanged.
type CoreValType byte

const (
	CoreI32       CoreValType = 0x7f
	CoreI64       CoreValType = 0x7e
	CoreF32       CoreValType = 0x7d
	CoreF64       CoreValType = 0x7c
	CoreV128      CoreValType = 0x7b
	CoreFuncRef   CoreValType = 0x70
	CoreExternRef CoreValType = 0x6f
)

func (t CoreValType) String() string {
	switch t {
	case CoreI32:
		return "i32"
	case CoreI64:
		return "i64"
	case CoreF32:
		return "f32"
	case CoreF64:
		return "f64"
	case CoreV128:
		return "v128"
	case CoreFuncRef:
		return "funcref"
	case CoreExternRef:
		return "externref"
	}
	return "invalid core value type"
}

// CoreTypeDef is a core type definition: *CoreFuncType or *ModuleType.
type CoreTypeDef interface{ isCoreTypeDef() }

// CoreFuncType is a core function type.
type CoreFuncType struct {
	Params  []CoreValType
	Results []CoreValType
}

// ModuleType is (module Decls...), the type of a core module. Its
// declarators see a fresh core type index space that *CoreType and
// *CoreOuterAlias declarators append to.
type ModuleType struct{ Decls []ModuleDecl }

// ModuleDecl is a module type declarator: *CoreImport, *CoreType (only
// function types), *CoreOuterAlias or *CoreExportDecl.
type ModuleDecl interface{ isModuleDecl() }

// CoreImport declares a core import Module.Name.
type CoreImport struct {
	Module string
	Name   string
	Desc   CoreExternDesc
}

// CoreOuterAlias aliases core type Idx of the enclosing scope Count levels
// out.
type CoreOuterAlias struct {
	Count uint32
	Idx   uint32
}

// CoreExportDecl declares a core export.
type CoreExportDecl struct {
	Name string
	Desc CoreExternDesc
}

// CoreExternDesc is a core extern type. Kind is SortCoreFunc or
// SortCoreTag (TypeIdx is the function's or tag's core type index),
// SortCoreTable, SortCoreMemory or SortCoreGlobal; only the field matching
// Kind is set.
type CoreExternDesc struct {
	Kind    Sort
	TypeIdx uint32
	Table   TableType
	Memory  MemoryType
	Global  GlobalType
}

// Limits are core table/memory limits. Max is nil when unbounded.
type Limits struct {
	Min uint64
	Max *uint64
}

// TableType is a core table type.
type TableType struct {
	Elem   CoreValType
	Limits Limits
	Is64   bool
}

// MemoryType is a core memory type.
type MemoryType struct {
	Limits Limits
	Shared bool
	Is64   bool
}

// GlobalType is a core global type.
type GlobalType struct {
	Type    CoreValType
	Mutable bool
}

func (*CoreFuncType) isCoreTypeDef() {}
func (*ModuleType) isCoreTypeDef()   {}

func (*CoreImport) isModuleDecl()     {}
func (*CoreType) isModuleDecl()       {}
func (*CoreOuterAlias) isModuleDecl() {}
func (*CoreExportDecl) isModuleDecl() {}
