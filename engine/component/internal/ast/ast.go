// Package ast describes a decoded WebAssembly component.
//
// The tree mirrors the component binary format: every reference is an index
// into one of the component's index spaces and nothing is resolved. Index
// spaces are built by walking Component.Defs in order; each definition
// appends exactly one entry to the index space returned by DefSort (a Start
// appends nothing). Nested components, component types and instance types
// start with fresh, empty index spaces of their own.
package ast

// Component is a decoded component: its definitions in binary order plus
// its custom sections.
type Component struct {
	// Defs holds every definition in the order it appears in the binary,
	// with section vectors flattened (one Def per vector element).
	Defs []Def
	// Customs holds the custom sections in binary order, including the
	// "component-name" section, whose data is also decoded into Names.
	Customs []Custom
	// Names is the decoded "component-name" section, or nil if there is
	// none or it is malformed (a bad name section is not an error).
	Names *NameSection
}

// Def is one definition of a component. The concrete types are
// *CoreModule, *CoreInstantiate, *CoreInstanceExports, *CoreType,
// *NestedComponent, *Instantiate, *InstanceExports, *Alias, *Type, *Canon,
// *Start, *Import and *Export.
type Def interface{ isDef() }

// DefSort returns the index space a definition appends to. ok is false for
// definitions that do not define an indexed item (Start).
func DefSort(d Def) (s Sort, ok bool) {
	switch d := d.(type) {
	case *CoreModule:
		return SortCoreModule, true
	case *CoreInstantiate, *CoreInstanceExports:
		return SortCoreInstance, true
	case *CoreType:
		return SortCoreType, true
	case *NestedComponent:
		return SortComponent, true
	case *Instantiate, *InstanceExports:
		return SortInstance, true
	case *Alias:
		return d.Sort, true
	case *Type:
		return SortType, true
	case *Canon:
		return d.Sort(), true
	case *Import:
		return d.Desc.Sort(), true
	case *Export:
		return d.Sort, true
	}
	return 0, false
}

// DefOffset returns the byte offset of a definition in the top-level
// binary, for errors.
func DefOffset(d Def) int {
	switch d := d.(type) {
	case *CoreModule:
		return d.Offset
	case *CoreInstantiate:
		return d.Offset
	case *CoreInstanceExports:
		return d.Offset
	case *CoreType:
		return d.Offset
	case *NestedComponent:
		return d.Offset
	case *Instantiate:
		return d.Offset
	case *InstanceExports:
		return d.Offset
	case *Alias:
		return d.Offset
	case *Type:
		return d.Offset
	case *Canon:
		return d.Offset
	case *Start:
		return d.Offset
	case *Import:
		return d.Offset
	case *Export:
		return d.Offset
	}
	return 0
}

// CoreModule is an embedded core module, kept undecoded.
type CoreModule struct {
	// Bytes is the complete core module binary (a sub-slice of the input).
	Bytes []byte
	// Offset is the position of Bytes within the top-level input.
	Offset int
}

// CoreInstantiate instantiates core module ModuleIdx.
type CoreInstantiate struct {
	ModuleIdx uint32
	Args      []CoreInstantiateArg
	Offset    int
}

// CoreInstantiateArg supplies core instance InstanceIdx for the import
// module name Name. The binary format only allows the core instance sort.
type CoreInstantiateArg struct {
	Name        string
	InstanceIdx uint32
}

// CoreInstanceExports builds a core instance from existing core items.
type CoreInstanceExports struct {
	Exports []CoreInlineExport
	Offset  int
}

// CoreInlineExport names a core item; Sort is always a core sort.
type CoreInlineExport struct {
	Name string
	Sort Sort
	Idx  uint32
}

// CoreType defines a core type (a function type or a module type).
type CoreType struct {
	Type   CoreTypeDef
	Offset int
}

// NestedComponent is a component defined inside its parent.
type NestedComponent struct {
	Component *Component
	Offset    int
}

// Instantiate instantiates component ComponentIdx.
type Instantiate struct {
	ComponentIdx uint32
	Args         []InstantiateArg
	Offset       int
}

// InstantiateArg supplies item Idx of index space Sort for import Name.
type InstantiateArg struct {
	Name string
	Sort Sort
	Idx  uint32
}

// InstanceExports builds a component instance from existing items.
type InstanceExports struct {
	Exports []InlineExport
	Offset  int
}

// InlineExport names item Idx of index space Sort inside an
// InstanceExports.
type InlineExport struct {
	Name  string
	Attrs NameAttrs
	Sort  Sort
	Idx   uint32
}

// AliasKind selects the target of an Alias.
type AliasKind uint8

const (
	// AliasInstanceExport aliases export Name of component instance
	// InstanceIdx.
	AliasInstanceExport AliasKind = iota + 1
	// AliasCoreInstanceExport aliases export Name of core instance
	// InstanceIdx; Sort is a core sort.
	AliasCoreInstanceExport
	// AliasOuter aliases item Idx of the Sort index space of the scope
	// Count levels out (0 is the current scope).
	AliasOuter
)

func (k AliasKind) String() string {
	switch k {
	case AliasInstanceExport:
		return "export"
	case AliasCoreInstanceExport:
		return "core export"
	case AliasOuter:
		return "outer"
	}
	return "invalid alias kind"
}

// Alias introduces an item of index space Sort defined elsewhere. Which
// fields are meaningful depends on Kind.
type Alias struct {
	Sort        Sort
	Kind        AliasKind
	InstanceIdx uint32 // AliasInstanceExport, AliasCoreInstanceExport
	Name        string // AliasInstanceExport, AliasCoreInstanceExport
	Count       uint32 // AliasOuter
	Idx         uint32 // AliasOuter
	Offset      int
}

// Type defines a component-level type.
type Type struct {
	Type   TypeDef
	Offset int
}

// Start calls component function FuncIdx at instantiation. Only the
// argument-less, result-less form is supported (values are not).
type Start struct {
	FuncIdx uint32
	Offset  int
}

// Import imports an item named Name described by Desc.
type Import struct {
	Name   string
	Attrs  NameAttrs
	Desc   ExternDesc
	Offset int
}

// Export exports item Idx of index space Sort as Name. Like an alias, an
// export appends a new entry to the Sort index space. Desc is the optional
// ascribed type.
type Export struct {
	Name   string
	Attrs  NameAttrs
	Sort   Sort
	Idx    uint32
	Desc   *ExternDesc
	Offset int
}

// NameAttrs holds the optional attributes of an import/export name (the
// 0x02 name encoding). Absent attributes are empty strings; HasImplements
// tells an empty implements from none (the former is invalid).
type NameAttrs struct {
	Implements    string
	VersionSuffix string
	ExternalID    string
	HasImplements bool
}

// Custom is a custom section.
type Custom struct {
	Name   string
	Data   []byte
	Offset int
}

// NameSection is the decoded "component-name" custom section.
type NameSection struct {
	// Component is the component's own name, if given.
	Component string
	// Names maps an index space to its index → name association.
	Names map[Sort]map[uint32]string
}

func (*CoreModule) isDef()          {}
func (*CoreInstantiate) isDef()     {}
func (*CoreInstanceExports) isDef() {}
func (*CoreType) isDef()            {}
func (*NestedComponent) isDef()     {}
func (*Instantiate) isDef()         {}
func (*InstanceExports) isDef()     {}
func (*Alias) isDef()               {}
func (*Type) isDef()                {}
func (*Canon) isDef()               {}
func (*Start) isDef()               {}
func (*Import) isDef()              {}
func (*Export) isDef()              {}
