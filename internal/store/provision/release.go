package provision

import (
	"context"
	"errors"
	"log/slog"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/github"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// GitHub opens the GitHub release source (MUR_GITHUB_API_BASE,
// GITHUB_TOKEN from getenv).
func GitHub(getenv func(string) string, log *slog.Logger) (*github.Client, error) {
	return github.Open(github.Options{Getenv: getenv, Log: log})
}

// Release stores the packages a release source resolved (a bare name's
// one, a github: ref's every one). Each goes through install's checks
// (its recorded sha256, then f's lock) before any is stored, so a refused
// package leaves the store as it was. Pinning is the caller's.
func Release(ctx context.Context, f *install.Fetcher, dst *registry.Local, src *github.Repo, pkgs []*registry.Resolved) ([]Installed, error) {
	from := install.Source{Name: src.String(), Resolver: src}
	arts := make([]*install.Artifact, 0, len(pkgs))
	for _, p := range pkgs {
		a, err := f.Accept(ctx, &install.Resolved{Request: install.Request{Name: p.Name, Version: p.Version}, Source: from, Package: p})
		if err != nil {
			return nil, err
		}
		arts = append(arts, a)
	}
	out := make([]Installed, 0, len(arts))
	for _, a := range arts {
		p, err := install.Store(ctx, dst, a)
		if err != nil {
			return out, err
		}
		out = append(out, Installed{Path: p, Pin: a.Pin()})
	}
	return out, nil
}

// PlatformInstall is one platform's outcome of AllPlatforms.
type PlatformInstall struct {
	Platform string
	// Generic is set when the release had no variant for the platform
	// and its generic package was stored instead.
	Generic   bool
	Installed Installed
	Err       error
}

// AllPlatforms is Murmur's --all-platforms: name@version for each of
// github.AllPlatforms() from src, each checked as any install and stored
// in dst, unpinned. A platform that fails does not stop the others.
func AllPlatforms(ctx context.Context, src *github.Repo, dst *registry.Local, name, version string) []PlatformInstall {
	f := &install.Fetcher{Sources: []install.Source{{Name: src.String(), Resolver: src}}, Mode: install.Guard}
	var out []PlatformInstall
	for _, p := range github.AllPlatforms() {
		r := PlatformInstall{Platform: p}
		plat, err := artifact.ParsePlatform(p)
		if err == nil {
			r.Installed, r.Generic, err = platform(ctx, f, dst, name, version, plat)
		}
		r.Err = err
		out = append(out, r)
	}
	return out
}

func platform(ctx context.Context, f *install.Fetcher, dst *registry.Local, name, version string, p artifact.Platform) (Installed, bool, error) {
	a, err := f.Fetch(ctx, install.Request{Name: name, Version: version, Platform: &p})
	if err != nil {
		return Installed{}, false, err
	}
	path, err := install.Store(ctx, dst, a)
	if err != nil {
		return Installed{}, false, err
	}
	return Installed{Path: path, Pin: a.Pin()}, a.Platform == nil, nil
}

// NotFound says whether err is a release source's E-REG-001.
func NotFound(err error) bool { return errors.Is(err, registry.ErrNotFound) }
