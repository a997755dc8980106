package install

import (
	"context"
	"path/filepath"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
)

// Store is step 5 for an install: it writes the package into dst,
// replacing what dst held for the variant, with the metadata Murmur
// records (packaging type and role from the package's own manifest, no
// description or tags). A package that came from dst itself is left as it
// is. It returns the package's path.
func Store(ctx context.Context, dst *registry.Local, a *Artifact) (string, error) {
	if l, ok := a.from.(*registry.Local); ok && samePath(l.Root(), dst.Root()) {
		return dst.PackagePath(a.Name, a.Version, a.Platform), nil
	}
	meta := artifact.Meta{Name: a.Name, Version: a.Version, Runtime: artifact.RuntimeType(a.Manifest.PackagingType()),
		ArtifactRuntime: a.Manifest.Runtime, Platforms: []artifact.Platform{}, Tags: []string{}}
	if a.Platform != nil {
		meta.Platforms = []artifact.Platform{*a.Platform}
	}
	p, err := dst.StoreInstalled(ctx, meta, a.Data, a.SHA256)
	if err != nil {
		return "", failure(StepStore, err)
	}
	return p, nil
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
