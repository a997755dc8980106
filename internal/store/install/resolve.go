package install

import (
	"context"
	"errors"

	"github.com/mur-go/mur/internal/store/registry"
)

// Resolve is step 1: the first source that has the package wins. A source
// that fails otherwise does not end the search (Murmur's presence check
// falls through on any error), but its failure is reported when it decides
// the outcome: when a later source has the package, so a broken store is
// never silently shadowed, or when every source failed. The package is
// ErrNotFound when some source lacks it and none has it.
//
// When the failure reported is a source's, the returned Resolved names
// that source (Source) and holds no Package, so a caller can say where it
// failed; otherwise it is nil on failure.
func (f *Fetcher) Resolve(ctx context.Context, req Request) (*Resolved, error) {
	var failed, missed *Resolved
	var failedErr, missedErr error
	for _, s := range f.Sources {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := s.Resolver.Resolve(ctx, req.Name, req.Version, req.Platform)
		switch {
		case err == nil && failed != nil:
			return failed, failedErr
		case err == nil:
			return &Resolved{Request: req, Source: s, Package: p}, nil
		case errors.Is(err, registry.ErrNotFound):
			if missed == nil {
				missed, missedErr = &Resolved{Request: req, Source: s}, failure(StepResolve, err)
			}
		case failed == nil:
			failed, failedErr = &Resolved{Request: req, Source: s}, failure(StepResolve, err)
		}
	}
	if missed != nil {
		return missed, missedErr
	}
	if failed != nil {
		return failed, failedErr
	}
	return nil, failure(StepResolve, registry.NotFoundError(req.Name, req.Version))
}
