package cli

import (
	"context"
	"os"

	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/store/search"
)

// ociEntries lists an OCI registry's packages as index entries. A tag
// that is not a package mur published is skipped with a warning on
// stderr, escaped like every string the registry chose.
func (a *app) ociEntries(ctx context.Context, url string, plainHTTP bool) ([]search.Entry, error) {
	r, err := oci.New(url, oci.Options{PlainHTTP: plainHTTP, Getenv: os.Getenv, Log: a.log})
	if err != nil {
		return nil, err
	}
	found, skipped, err := r.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	a.warnSkipped(skipped)
	entries := make([]search.Entry, 0, len(found))
	for _, l := range found {
		entries = append(entries, search.Entry{Name: l.Name, Version: l.Version, Runtime: l.Runtime,
			Description: l.Description, Tags: []string{}, Platforms: l.Platforms})
	}
	return entries, nil
}
