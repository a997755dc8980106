package oci

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/mod/semver"
	"oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/errcode"

	"github.com/mur-go/mur/internal/base/diag"
	reg "github.com/mur-go/mur/internal/store/registry"
)

// Listed is one package version found by Catalog, as its manifest's
// annotations describe it. Every string comes from the registry.
type Listed struct {
	Name, Version string
	Runtime       string  // the role (tool, driver…), else the packaging runtime
	Packaging     string  // wasm, native or static
	Description   *string // nil when the manifest carries none
	Platforms     []string
}

// Skipped is a tag Catalog could not read as a package, and why.
type Skipped struct {
	Ref string // PREFIX/<name>:<tag>
	Err error
}

// catalogLimits bound what Catalog reads: the registry chooses how much
// it lists, so every count is capped and a catalog past a cap is refused
// rather than searched in part.
type catalogLimits struct {
	repositories int // package repositories under the prefix
	tags         int // tags over all of them, one manifest (or index) each
	pages        int // catalog and tag-list pages, empty ones included
	pageSize     int // n asked of the registry per page
	workers      int // requests in flight at once
}

// Catalog's caps on what a registry may hold under the prefix.
const (
	MaxCatalogRepositories = 500
	MaxCatalogTags         = 2000
)

func defaultCatalogLimits() catalogLimits {
	return catalogLimits{repositories: MaxCatalogRepositories, tags: MaxCatalogTags, pages: 200, pageSize: 100, workers: 4}
}

// maxIndexEntries bounds the native variants of one version read for a
// listing: Murmur names four platforms.
const maxIndexEntries = 16

var errStop = errors.New("past the prefix")

// Catalog lists every package under the prefix: the registry's catalog
// (/v2/_catalog, which must be offered), each repository's tags, and each
// tag's manifest read and checked as Resolve reads it; the package blobs
// are not fetched. A tag that is not a package mur published is returned
// in skipped rather than failing the listing.
func (r *Registry) Catalog(ctx context.Context) (found []Listed, skipped []Skipped, err error) {
	names, err := r.packageRepositories(ctx)
	if err != nil {
		return nil, nil, err
	}
	tags := make([][]string, len(names))
	var total atomic.Int64
	err = r.parallel(ctx, len(names), func(ctx context.Context, i int) error {
		var err error
		tags[i], err = r.listTags(ctx, names[i], &total)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	type job struct{ name, tag string }
	var jobs []job
	for i, n := range names {
		for _, t := range tags[i] {
			jobs = append(jobs, job{n, t})
		}
	}
	listed := make([]*Listed, len(jobs))
	failed := make([]error, len(jobs))
	err = r.parallel(ctx, len(jobs), func(ctx context.Context, i int) error {
		listed[i], failed[i] = r.listTag(ctx, jobs[i].name, jobs[i].tag)
		return ctx.Err()
	})
	if err != nil {
		return nil, nil, err
	}
	for i, j := range jobs {
		if failed[i] != nil {
			ref, _ := r.loc.reference(j.name, j.tag)
			skipped = append(skipped, Skipped{Ref: ref.String(), Err: failed[i]})
			continue
		}
		found = append(found, *listed[i])
	}
	return found, skipped, nil
}

// packageRepositories is the catalog's repositories directly under the
// prefix, as package names. The catalog is in lexical order (the
// distribution API says so), so listing starts at the prefix and stops at
// the first repository past it.
func (r *Registry) packageRepositories(ctx context.Context) ([]string, error) {
	cat := &remote.Registry{RepositoryOptions: remote.RepositoryOptions{Client: r.auth,
		Reference: registry.Reference{Registry: r.loc.Host}, PlainHTTP: r.plain}, RepositoryListPageSize: r.limits.pageSize}
	under := ""
	if r.loc.Prefix != "" {
		under = r.loc.Prefix + "/"
	}
	var names []string
	pages := 0
	err := cat.Repositories(ctx, r.loc.Prefix, func(page []string) error {
		if pages++; pages > r.limits.pages {
			return r.tooLarge(fmt.Sprintf("its catalog runs past %d pages", r.limits.pages))
		}
		for _, repo := range page {
			if !strings.HasPrefix(repo, under) {
				if repo > under {
					return errStop
				}
				continue
			}
			name := repo[len(under):]
			if name == "" || strings.Contains(name, "/") {
				continue // another prefix's package, or not a package
			}
			if names = append(names, name); len(names) > r.limits.repositories {
				return r.tooLarge(fmt.Sprintf("it holds more than %d package repositories under %s", r.limits.repositories, r.where()))
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, r.catalogFailure(err)
	}
	return names, nil
}

// listTags is one repository's tags, counted into total against the cap.
func (r *Registry) listTags(ctx context.Context, name string, total *atomic.Int64) ([]string, error) {
	repo, where, err := r.repository(name, "x")
	if err != nil {
		return nil, nil // not a name mur publishes under
	}
	repo.TagListPageSize = r.limits.pageSize
	var tags []string
	pages := 0
	err = repo.Tags(ctx, "", func(page []string) error {
		if pages++; pages > r.limits.pages {
			return r.tooLarge(fmt.Sprintf("the tag list of %s runs past %d pages", name, r.limits.pages))
		}
		if total.Add(int64(len(page))) > int64(r.limits.tags) {
			return r.tooLarge(fmt.Sprintf("it holds more than %d tags under %s", r.limits.tags, r.where()))
		}
		tags = append(tags, page...)
		return nil
	})
	var d *diag.Error
	switch {
	case errors.As(err, &d):
		return nil, err
	case notFound(err):
		return nil, nil // deleted since the catalog was read
	case err != nil:
		return nil, r.failure("listing the tags of "+strings.TrimSuffix(where, ":x"), err)
	}
	slices.SortFunc(tags, byVersion)
	return tags, nil
}

// listTag reads one tag's manifest, or its index and each variant's
// manifest, with the checks Resolve makes, and describes the package
// from the annotations.
func (r *Registry) listTag(ctx context.Context, name, tag string) (*Listed, error) {
	repo, where, err := r.repository(name, tag)
	if err != nil {
		return nil, err
	}
	desc, err := repo.Resolve(ctx, tag)
	if err != nil {
		return nil, r.failure("resolving "+where, err)
	}
	raw, err := r.fetchManifest(ctx, repo, desc, name, tag)
	if err != nil {
		return nil, err
	}
	if desc.MediaType != ociIndex {
		return r.listed(raw, desc, name, tag)
	}
	entries, err := r.variants(raw, name, tag)
	if err != nil {
		return nil, err
	}
	var l *Listed
	for _, e := range entries {
		raw, err := r.fetchManifest(ctx, repo, e, name, tag)
		if err != nil {
			return nil, err
		}
		v, err := r.listed(raw, e, name, tag)
		if err != nil {
			return nil, err
		}
		if l == nil {
			l = v
			continue
		}
		l.Platforms = append(l.Platforms, v.Platforms...)
	}
	return l, nil
}

// byVersion orders semantic versions as versions (1.9.0 before 1.10.0)
// and other tags after them, as text: registries list tags in their own
// order.
func byVersion(a, b string) int {
	va, vb := "v"+a, "v"+b
	switch oka, okb := semver.IsValid(va), semver.IsValid(vb); {
	case oka && okb:
		if c := semver.Compare(va, vb); c != 0 {
			return c
		}
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// tooLarge refuses a catalog past one of the caps.
func (r *Registry) tooLarge(why string) error {
	return &diag.Error{Code: reg.CodeIO, Err: reg.ErrInvalidInput,
		Msg:  fmt.Sprintf("OCI registry %s is too large to search: %s", r.loc.Host, why),
		Hint: "search a narrower prefix (oci://" + r.loc.Host + "/PREFIX/...), or publish an artifacts-index.json and search it by URL"}
}

// catalogFailure says that the registry does not list its catalog when it
// refuses it, as GHCR, ECR and Docker Hub do.
func (r *Registry) catalogFailure(err error) error {
	var d *diag.Error
	if errors.As(err, &d) {
		return err
	}
	var resp *errcode.ErrorResponse
	if errors.Is(err, auth.ErrBasicCredentialNotFound) || !errors.As(err, &resp) {
		return r.failure("listing the catalog", err)
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed:
		return &diag.Error{Code: reg.CodeIO, Err: fmt.Errorf("%w: %w", reg.ErrAuth, err),
			Msg: fmt.Sprintf("OCI registry %s refused to list its catalog (HTTP %d on /v2/_catalog), so it cannot be searched", r.loc.Host, resp.StatusCode),
			Hint: "if it needs credentials, log in with 'docker login " + r.loc.Host + "'; registries such as GHCR, ECR and Docker Hub list no catalog to anyone: " +
				"search an artifacts-index.json by URL instead, or install a known name@version directly"}
	}
	return r.failure("listing the catalog", err)
}

// where is oci://HOST/PREFIX, for messages.
func (r *Registry) where() string {
	if r.loc.Prefix == "" {
		return Scheme + r.loc.Host
	}
	return Scheme + r.loc.Host + "/" + r.loc.Prefix
}

// parallel runs fn for 0..n-1 on at most limits.workers goroutines and
// returns the first error; the rest of the work is abandoned after it.
func (r *Registry) parallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, r.limits.workers) {
		wg.Go(func() {
			for i := range next {
				if err := fn(ctx, i); err != nil {
					cancel(err)
				}
			}
		})
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := context.Cause(ctx); err != nil && ctx.Err() != nil {
		return err
	}
	return nil
}
