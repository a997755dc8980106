package github

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/registry"
)

// pkg downloads asset a of rel, checks it against the sha256 rel records
// for it, then reads the package's murmur.yaml: when name (and version)
// are given the package must be that. The Resolved it returns carries the
// recorded sha256, which install checks again and pins.
func (r *Repo) pkg(ctx context.Context, rel *Release, a Asset, name, version string) (*registry.Resolved, error) {
	sum, err := r.recorded(ctx, rel, a)
	if err != nil {
		return nil, err
	}
	data, err := r.download(ctx, a)
	if err != nil {
		return nil, err
	}
	if got := artifact.SHA256Hex(data); !artifact.SameDigest(got, sum) {
		return nil, refused(r.String(), a.Name, fmt.Sprintf("its bytes hash to sha256 %s, the release records %s", got, sum))
	}
	m, err := packageManifest(data, r.c.getenv)
	if err != nil {
		return nil, diag.Wrap(registry.CodeIO, err, "asset %s from %s is not a readable package: %v", a.Name, r.String(), err).
			WithHint("ask the release's publisher to rebuild it with 'mur build'")
	}
	switch {
	case artifact.CheckName(m.Name) != nil:
		return nil, refused(r.String(), a.Name, fmt.Sprintf("it holds a package named %q, which is no artifact name", m.Name))
	case !plainVersion(m.Version):
		return nil, refused(r.String(), a.Name, fmt.Sprintf("it holds a package of version %q, which is no version", m.Version))
	case name != "" && m.Name != name:
		return nil, refused(r.String(), a.Name, fmt.Sprintf("it holds the package %q, not %q", m.Name, name))
	case version != "" && m.Version != version:
		return nil, refused(r.String(), a.Name, fmt.Sprintf("it holds %s@%s, not version %s", m.Name, m.Version, version))
	}
	var served *artifact.Platform
	if v := variantOf(a.Name); v != "" {
		if p, err := artifact.ParsePlatform(v); err == nil {
			served = &p
		}
	}
	meta := artifact.Meta{Name: m.Name, Version: m.Version, Runtime: m.PackagingType(), ArtifactRuntime: m.Runtime,
		Platforms: []artifact.Platform{}, Tags: []string{}}
	if served != nil {
		meta.Platforms = []artifact.Platform{*served}
	}
	return &registry.Resolved{Name: m.Name, Version: m.Version, Data: data, SHA256: sum, Meta: meta, Platform: served}, nil
}

// plainVersion: a version is one printable path component, since the
// store makes a directory of it.
func plainVersion(v string) bool {
	return v != "" && len(v) <= 128 && !strings.HasPrefix(v, ".") && !strings.ContainsAny(v, "/\\: ") && printable(v)
}

// packageManifest reads murmur.yaml from package bytes already verified.
func packageManifest(data []byte, getenv func(string) string) (*artifact.Manifest, error) {
	pkg, err := artifact.Open(data, artifact.MaxDecompressedBytes(getenv))
	if err != nil {
		return nil, err
	}
	return pkg.ParsedManifest()
}

// recorded is the sha256 the release records for a: GitHub's "digest"
// and a <name>.sha256 asset beside it. At least one is needed, and when
// both are there they must agree.
func (r *Repo) recorded(ctx context.Context, rel *Release, a Asset) (string, error) {
	sums := []string{}
	if a.SHA256 != "" {
		sums = append(sums, a.SHA256)
	}
	if side, ok := rel.asset(a.Name + ".sha256"); ok {
		data, err := r.c.get(ctx, assetPath(r, side), "application/octet-stream", maxChecksumBytes, apiTimeout)
		if err != nil {
			return "", r.assetError(side, err)
		}
		sum, err := parseChecksumFile(data, a.Name)
		if err != nil {
			return "", refused(r.String(), side.Name, err.Error())
		}
		sums = append(sums, sum)
	}
	switch {
	case len(sums) == 0:
		return "", refused(r.String(), a.Name, fmt.Sprintf("the release records no sha256 for it (no \"digest\" and no %s.sha256 asset)", a.Name))
	case len(sums) == 2 && !artifact.SameDigest(sums[0], sums[1]):
		return "", refused(r.String(), a.Name, fmt.Sprintf("its \"digest\" (sha256 %s) and %s.sha256 (%s) disagree", sums[0], a.Name, sums[1]))
	}
	return sums[0], nil
}

// download reads asset a through the API's asset endpoint (GitHub
// redirects it to its CDN), no more than the size the release announces
// and never more than the package cap.
func (r *Repo) download(ctx context.Context, a Asset) ([]byte, error) {
	limit := int64(registry.MaxDownloadBytes)
	if a.Size > limit {
		return nil, refused(r.String(), a.Name, fmt.Sprintf("it is %d bytes, more than the %d accepted", a.Size, limit))
	}
	if a.Size > 0 {
		limit = a.Size
	}
	data, err := r.c.get(ctx, assetPath(r, a), "application/octet-stream", limit, assetTimeout)
	if err != nil {
		return nil, r.assetError(a, err)
	}
	return data, nil
}

func assetPath(r *Repo, a Asset) []string {
	return []string{"repos", r.owner, r.name, "releases", "assets", fmt.Sprint(a.ID)}
}

func (r *Repo) assetError(a Asset, err error) error {
	var big *tooLarge
	switch {
	case errors.As(err, &big):
		return refused(r.String(), a.Name, "it holds more than the release announces: "+err.Error())
	case errors.Is(err, errNotFound):
		return refused(r.String(), a.Name, "the release lists it, but downloading it answers 404")
	}
	return failure(r.String(), "downloading "+a.Name, err)
}
