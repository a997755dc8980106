package stage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/install"
)

// fetched is a registry artifact as a store returned it, not yet trusted.
type fetched struct {
	want
	res *install.Resolved
}

// resolveAll fetches every wanted artifact from the first store that has
// it (install's resolve step). It folds Murmur's two passes into one: the
// presence pre-check (nothing anywhere ⇒ E-RUN-008 listing all of them)
// and staging resolution (a broken store is reported rather than silently
// skipped). Nothing is verified here; Accept does that.
func resolveAll(ctx context.Context, f *install.Fetcher, ws []want, plat *artifact.Platform) ([]fetched, error) {
	out := make([]fetched, 0, len(ws))
	var missing []string
	var firstErr error
	for _, w := range ws {
		r, err := f.Resolve(ctx, install.Request{Name: w.ref.Name, Version: w.version, Platform: plat})
		switch {
		case err == nil:
			out = append(out, fetched{want: w, res: r})
		case errors.Is(err, install.ErrNotFound):
			missing = append(missing, w.ref.Name+"@"+w.version)
		case r == nil: // not a store's failure (the context ended)
			return nil, err
		case firstErr == nil:
			firstErr = fmt.Errorf("resolving %s@%s in %s: %w", w.ref.Name, w.version, r.Source.Name, err)
		}
	}
	if len(missing) > 0 {
		names := make([]string, len(f.Sources))
		for i, s := range f.Sources {
			names[i] = s.Name
		}
		return nil, &diag.Error{Code: CodeMissing, Err: ErrMissingArtifacts,
			Msg:  "missing artifacts: " + strings.Join(missing, ", "),
			Hint: "run `mur install` in the project to fetch them (looked in " + strings.Join(names, ", ") + ")"}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}
