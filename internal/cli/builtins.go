package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/firstparty"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// withBuiltins is the install sources: the chosen registry, falling back
// to the drivers built into mur when it does not have the name and
// version, so `mur install openai-compatible@0.1.0` works offline while a
// registry that has the same name and version wins. Any other failure of
// the registry (authentication, I/O) is reported as it is.
func withBuiltins(src install.Source) []install.Source {
	return []install.Source{{Name: src.Name, Resolver: builtinFallback{src.Resolver, &firstparty.Registry{}}}}
}

type builtinFallback struct {
	primary registry.Resolver
	builtin *firstparty.Registry
}

func (b builtinFallback) Resolve(ctx context.Context, name, version string, p *artifact.Platform) (*registry.Resolved, error) {
	r, err := b.primary.Resolve(ctx, name, version, p)
	if !errors.Is(err, registry.ErrNotFound) {
		return r, err
	}
	if br, berr := b.builtin.Resolve(ctx, name, version, p); berr == nil {
		return br, nil
	}
	return r, err
}

// builtinRows are the built-in artifacts as list rows (scope "builtin").
func builtinRows(ctx context.Context) ([]listRow, error) {
	metas, err := (&firstparty.Registry{}).List(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([]listRow, 0, len(metas))
	for _, m := range metas {
		rows = append(rows, newListRow("builtin", m))
	}
	return rows, nil
}

// printBuiltins is the table of built-in artifacts under a listing of the
// global store, so a fresh machine shows what it can install offline.
func printBuiltins(w io.Writer, rows []listRow) error {
	fmt.Fprintln(w, "\nBuilt into mur (install offline with 'mur install <name>@<version>'):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tRUNTIME")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Version, r.Runtime)
	}
	return tw.Flush()
}

// withoutListed drops the built-in rows a store already lists.
func withoutListed(builtins, listed []listRow) []listRow {
	return slices.DeleteFunc(builtins, func(b listRow) bool {
		return slices.ContainsFunc(listed, func(r listRow) bool { return r.Name == b.Name && r.Version == b.Version })
	})
}
