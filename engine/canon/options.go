// Package canon implements the component model's canonical ABI: how values
// of WIT types are flattened into core wasm values and laid out in a guest's
// linear memory, in both directions (lower: Go values into the guest; lift:
// guest into Go values).
package canon

import (
	"context"

	"github.com/tetratelabs/wazero/api"

	"github.com/mur-go/mur/engine/wit"
)

// StringEncoding is the canonical option string-encoding=.
type StringEncoding uint8

const (
	UTF8 StringEncoding = iota
	UTF16
	Latin1UTF16
)

func (e StringEncoding) String() string {
	switch e {
	case UTF8:
		return "utf8"
	case UTF16:
		return "utf16"
	case Latin1UTF16:
		return "latin1+utf16"
	}
	return "unknown"
}

// Realloc is the guest's realloc as the canonical ABI calls it.
type Realloc func(ctx context.Context, oldPtr, oldSize, align, newSize uint32) (uint32, error)

// Handles is the view of a component instance's resource handle table that
// lifting and lowering need. t is the resource type the function signature
// expects; implementations trap (return an error) on a type mismatch, an
// unknown handle, or a handle with outstanding borrows.
type Handles interface {
	// LiftOwn removes own handle h from the table and returns the resource.
	LiftOwn(t *wit.ResourceType, h uint32) (wit.Resource, error)
	// LiftBorrow returns the resource behind h without removing it.
	LiftBorrow(t *wit.ResourceType, h uint32) (wit.Resource, error)
	// LowerOwn inserts an owning handle for r and returns its index.
	LowerOwn(t *wit.ResourceType, r wit.Resource) (uint32, error)
	// LowerBorrow inserts a handle for r that is valid for the current call.
	LowerBorrow(t *wit.ResourceType, r wit.Resource) (uint32, error)
}

// Options are the canonical options of one lift or lower site.
type Options struct {
	Encoding StringEncoding
	// Memory is nil when the site declares no memory; lifting or lowering a
	// type that needs memory then fails.
	Memory  api.Memory
	Realloc Realloc
	Handles Handles
	// LiftBudget bounds the host memory, in bytes, one lift from this site
	// may allocate (strings, lists and the Go values holding them); a lift
	// past it fails with a *BudgetError. Zero means DefaultLiftBudget.
	LiftBudget uint64
}
