package cli

import (
	"context"
	"slices"

	"github.com/mur-go/mur/drivers"
	"github.com/mur-go/mur/install"
)

// withBuiltins is the install sources: the chosen registry first, then the
// drivers built into mur, so `mur install openai-compatible@0.1.0` works
// offline while a registry that has the same name and version wins.
func withBuiltins(src install.Source) []install.Source {
	return []install.Source{src, {Name: drivers.SourceName, Resolver: &drivers.Registry{}}}
}

// appendBuiltins adds the built-in artifacts a listing of the global
// store does not already show (scope "builtin"), so scripts find the
// versions to declare on a fresh machine.
func appendBuiltins(ctx context.Context, rows []listRow) ([]listRow, error) {
	metas, err := (&drivers.Registry{}).List(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range metas {
		if !slices.ContainsFunc(rows, func(r listRow) bool { return r.Name == m.Name && r.Version == m.Version }) {
			rows = append(rows, newListRow("builtin", m))
		}
	}
	return rows, nil
}
