package provision

import (
	"context"
	"errors"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/firstparty"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// Sources are the install sources for src: the chosen registry, falling
// back to the artifacts built into mur when it does not have the name
// and version, so the first-party drivers and hooks install offline while
// a registry that has the same name and version wins. Any other failure
// of the registry (authentication, I/O) is reported as it is.
func Sources(src install.Source) []install.Source {
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
