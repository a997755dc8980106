package ast

// Sort names an index space. Core sorts (IsCore) index the core index
// spaces of a component; the others index its component-level spaces.
// The binary format encodes a core sort as 0x00 followed by a core:sort
// byte; the decoder folds both levels into this one enum so consumers can
// key index spaces by a single value.
type Sort uint8

const (
	SortCoreFunc Sort = iota + 1
	SortCoreTable
	SortCoreMemory
	SortCoreGlobal
	SortCoreTag
	SortCoreType
	SortCoreModule
	SortCoreInstance
	SortFunc
	SortType
	SortComponent
	SortInstance
)

// IsCore reports whether s is one of the core index spaces.
func (s Sort) IsCore() bool { return s >= SortCoreFunc && s <= SortCoreInstance }

func (s Sort) String() string {
	switch s {
	case SortCoreFunc:
		return "core func"
	case SortCoreTable:
		return "core table"
	case SortCoreMemory:
		return "core memory"
	case SortCoreGlobal:
		return "core global"
	case SortCoreTag:
		return "core tag"
	case SortCoreType:
		return "core type"
	case SortCoreModule:
		return "core module"
	case SortCoreInstance:
		return "core instance"
	case SortFunc:
		return "func"
	case SortType:
		return "type"
	case SortComponent:
		return "component"
	case SortInstance:
		return "instance"
	}
	return "invalid sort"
}
