package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/base/termtext"
	"github.com/mur-go/mur/internal/store/oci"
)

// listRegistry lists the packages of an OCI registry, as mur search reads
// them, with SCOPE registry.
func (a *app) listRegistry(ctx context.Context, url string, plainHTTP, asJSON bool) error {
	r, err := oci.New(url, oci.Options{PlainHTTP: plainHTTP, Getenv: os.Getenv, Log: a.log})
	if err != nil {
		return err
	}
	found, skipped, err := r.Catalog(ctx)
	if err != nil {
		return err
	}
	a.warnSkipped(skipped)
	rows := make([]listRow, 0, len(found))
	for _, l := range found {
		rows = append(rows, listRow{Scope: "registry", Name: l.Name, Version: l.Version, Runtime: l.Runtime,
			Packaging: l.Packaging, Platforms: l.Platforms})
	}
	if asJSON {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintf(a.stdout, "No artifacts found.\n  looked in %s\n  add some with 'mur publish --registry %[1]s'\n", termtext.Escape(url, true))
		return err
	}
	return writeListTable(a.stdout, rows, false)
}

// warnSkipped says which tags of a registry were not packages, escaped
// like every string the registry chose.
func (a *app) warnSkipped(skipped []oci.Skipped) {
	for _, s := range skipped {
		fmt.Fprintf(a.stderr, "warning: skipped %s: %s\n", termtext.Escape(s.Ref, true), termtext.Escape(s.Err.Error(), true))
	}
}

// escapedRow is r with every cell escaped for a terminal.
func escapedRow(r listRow) listRow {
	r.Name, r.Version, r.Runtime = termtext.Escape(r.Name, true), termtext.Escape(r.Version, true), termtext.Escape(r.Runtime, true)
	plats := make([]string, len(r.Platforms))
	for i, p := range r.Platforms {
		plats[i] = termtext.Escape(p, true)
	}
	r.Platforms = plats
	return r
}
