package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/mur-go/mur/internal/store/firstparty"
)

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
