package ast

// CanonKind selects a canonical built-in.
type CanonKind uint8

const (
	// CanonLift lifts core function FuncIdx to a component function of
	// function type TypeIdx.
	CanonLift CanonKind = iota + 1
	// CanonLower lowers component function FuncIdx to a core function.
	CanonLower
	// CanonResourceNew, CanonResourceDrop and CanonResourceRep define core
	// functions operating on resource type TypeIdx.
	CanonResourceNew
	CanonResourceDrop
	CanonResourceRep
)

func (k CanonKind) String() string {
	switch k {
	case CanonLift:
		return "lift"
	case CanonLower:
		return "lower"
	case CanonResourceNew:
		return "resource.new"
	case CanonResourceDrop:
		return "resource.drop"
	case CanonResourceRep:
		return "resource.rep"
	}
	return "invalid canon kind"
}

// Canon is a canonical definition. Fields not used by Kind are zero.
type Canon struct {
	Kind CanonKind
	// FuncIdx is the core function (lift) or component function (lower).
	FuncIdx uint32
	// TypeIdx is the component function type (lift) or the resource type
	// (resource.new/drop/rep).
	TypeIdx uint32
	// Options applies to lift and lower.
	Options CanonOptions
	Offset  int
}

// Sort is the index space the definition appends to: component functions
// for lift, core functions for everything else.
func (c *Canon) Sort() Sort {
	if c.Kind == CanonLift {
		return SortFunc
	}
	return SortCoreFunc
}

// StringEncoding is the canonical string-encoding option.
type StringEncoding uint8

const (
	// StringUTF8 is the default when no encoding option is given.
	StringUTF8 StringEncoding = iota
	StringUTF16
	StringLatin1UTF16
)

func (e StringEncoding) String() string {
	switch e {
	case StringUTF8:
		return "utf8"
	case StringUTF16:
		return "utf16"
	case StringLatin1UTF16:
		return "latin1+utf16"
	}
	return "invalid string encoding"
}

// CanonOptions are the canonical ABI options; nil pointers mean absent.
type CanonOptions struct {
	StringEncoding StringEncoding
	Memory         *uint32 // core memory index
	Realloc        *uint32 // core function index
	PostReturn     *uint32 // core function index
}
