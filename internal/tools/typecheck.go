package tools

import (
	"fmt"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// funcEqual checks a guest's export type against the contract's with the
// engine's structural equality (field and case names matter, type names do
// not), worded the way Murmur reports a failed typed-func check.
func funcEqual(got, want *wit.Func) error {
	if got == nil {
		return fmt.Errorf("not a function")
	}
	if len(got.Params) != len(want.Params) {
		return fmt.Errorf("type mismatch with parameters: %d, want %d", len(got.Params), len(want.Params))
	}
	for i := range got.Params {
		if err := component.TypesMatch(got.Params[i].Type, want.Params[i].Type); err != nil {
			return fmt.Errorf("type mismatch with parameters: %s: %w", want.Params[i].Name, err)
		}
	}
	if err := component.TypesMatch(got.Result, want.Result); err != nil {
		return fmt.Errorf("type mismatch with results: %w", err)
	}
	return nil
}
