package stage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/artifact"
	"github.com/mur-go/mur/registry"
)

// fetched is a registry artifact as a store returned it, not yet trusted.
type fetched struct {
	want
	res   *registry.Resolved
	store string
}

// resolveAll fetches every wanted artifact from the first store that has
// it. It folds Murmur's two passes into one: the presence pre-check (any
// store error falls through; nothing anywhere ⇒ E-RUN-008 listing all of
// them) and staging resolution (only "not found" falls through, so a
// broken project store is reported rather than silently skipped).
// Nothing is verified here; see verify.
func resolveAll(ctx context.Context, stores []Store, ws []want, plat *artifact.Platform) ([]fetched, error) {
	out := make([]fetched, 0, len(ws))
	var missing []string
	var firstErr error
	for _, w := range ws {
		var hit *fetched
		var storeErr error
		for _, s := range stores {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			r, err := s.Resolver.Resolve(ctx, w.ref.Name, w.version, plat)
			if err == nil {
				hit = &fetched{want: w, res: r, store: s.Name}
				break
			}
			if !errors.Is(err, registry.ErrNotFound) && storeErr == nil {
				storeErr = fmt.Errorf("resolving %s@%s in %s: %w", w.ref.Name, w.version, s.Name, err)
			}
		}
		switch {
		case hit == nil:
			missing = append(missing, w.ref.Name+"@"+w.version)
		case storeErr != nil && firstErr == nil:
			firstErr = storeErr
		default:
			out = append(out, *hit)
		}
	}
	if len(missing) > 0 {
		names := make([]string, len(stores))
		for i, s := range stores {
			names[i] = s.Name
		}
		return nil, &Error{Code: CodeMissing, Err: ErrMissingArtifacts,
			Msg:  "missing artifacts: " + strings.Join(missing, ", "),
			Hint: "run `mur install` in the project to fetch them (looked in " + strings.Join(names, ", ") + ")"}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// verify is the integrity gate, run before a byte of the package is
// parsed: the bytes must hash to the store's recorded digest, and that
// digest must be the one murmur.lock pins (when there is a lock).
func verify(f fetched) (string, error) {
	name, ver := f.ref.Name, f.version
	if err := f.res.Verify(); err != nil {
		return "", storeIntegrity(name, ver, f.store, err)
	}
	sha := artifact.SHA256Hex(f.res.Data)
	if f.pinned != "" && !artifact.SameDigest(f.pinned, sha) {
		return "", lockIntegrity(name, ver, f.pinned, sha, f.store)
	}
	return sha, nil
}
