package provision

import (
	"context"
	"errors"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/manifestio"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// Installed is one artifact installed: where it is stored and its pin.
type Installed struct {
	Path string
	Pin  lockfile.Entry
}

// Artifact fetches name@version through install's pipeline (download,
// verify, lock check, manifest) and stores it in dst. Nothing is stored
// unless the bytes match the registry's sha256 and, when f has a lock,
// the pin; pinning is the caller's (Capsule pins a batch at once).
func Artifact(ctx context.Context, f *install.Fetcher, dst *registry.Local, name, version string) (Installed, error) {
	// Murmur resolves installs without a platform, so a native artifact
	// published only as a platform variant is "not found" by install while
	// run would find it. mur-go asks for this machine's variant; generic
	// packages still resolve through the fallback.
	var platform *artifact.Platform
	if p, err := artifact.ParsePlatform(artifact.CurrentPlatform()); err == nil {
		platform = &p
	}
	a, err := f.Fetch(ctx, install.Request{Name: name, Version: version, Platform: platform})
	var (
		big        *manifestio.SizeError
		unreadable *diag.Error
	)
	if errors.As(err, &big) {
		return Installed{}, manifestio.TooLarge("murmur.yaml in "+name+"@"+version, big.Size())
	}
	// install's extract failure quotes what the archive reported
	// (unreadable.Err); this says it in the installer's words.
	if errors.Is(err, install.StepExtract) && errors.As(err, &unreadable) {
		return Installed{}, diag.Wrap(artifact.CodeIO, unreadable.Err, "failed to parse murmur.yaml in %s@%s: %v", name, version, unreadable.Err).
			WithHint("rebuild the package with 'mur build'")
	}
	if err != nil {
		return Installed{}, err
	}
	p, err := install.Store(ctx, dst, a)
	if err != nil {
		return Installed{}, err
	}
	return Installed{Path: p, Pin: a.Pin()}, nil
}
