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

// Repo is one repository's releases.
type Repo struct {
	c           *Client
	owner, name string
}

// Repo returns the releases of OWNER/REPO, names as GitHub allows them.
func (c *Client) Repo(ownerRepo string) (*Repo, error) {
	owner, name, _ := strings.Cut(ownerRepo, "/")
	if !validName(owner, 39, "-") || owner[0] == '-' || !validName(name, 100, "._-") || name == "." || name == ".." {
		return nil, &diag.Error{Code: registry.CodeIO, Err: registry.ErrInvalidInput,
			Msg:  fmt.Sprintf("invalid github repo '%s' (expected owner/repo)", ownerRepo),
			Hint: "for example: mur install github:murmur-nexus/default-artifacts@v0.1.1"}
	}
	return &Repo{c: c, owner: owner, name: name}, nil
}

// validName: 1 to max ASCII letters, digits and the extra characters.
func validName(s string, max int, extra string) bool {
	if s == "" || len(s) > max {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// String is the source's name in messages: github:OWNER/REPO.
func (r *Repo) String() string { return "github:" + r.owner + "/" + r.name }

// CheckTag refuses a tag no release can have: blank, a dot name, or not
// printable text.
func CheckTag(tag string) error {
	if strings.TrimSpace(tag) == "" || tag == "." || tag == ".." || len(tag) > 255 || !printable(tag) {
		return fmt.Errorf("invalid release tag %q", tag)
	}
	return nil
}

// Latest resolves a bare name as Murmur does: the repository's latest
// release, the asset forArtifact picks for platform; the package inside
// must be named name. Its version is the package's own.
func (r *Repo) Latest(ctx context.Context, name, platform string) (*registry.Resolved, error) {
	rel, err := r.release(ctx, name, "latest")
	if err != nil {
		return nil, err
	}
	a, ok := rel.forArtifact(name, platform)
	if !ok {
		return nil, notFound(name, r.String(), fmt.Sprintf("asset not found in latest release '%s'", rel.Tag))
	}
	return r.pkg(ctx, rel, a, name, "")
}

// Release is every package of the release tagged tag, as Murmur's
// github: refs install them, except that a variant for another platform
// than platform is left out, and when a release has both a generic
// package and platform's variant of one name, the variant is taken.
func (r *Repo) Release(ctx context.Context, tag, platform string) ([]*registry.Resolved, error) {
	target := r.String() + "@" + tag
	if err := CheckTag(tag); err != nil {
		return nil, notFound(target, r.String(), err.Error())
	}
	rel, err := r.release(ctx, target, "tags", tag)
	if err != nil {
		return nil, err
	}
	// The packages are held in memory until every one is checked, so
	// together they get one package's cap: announced, then as read.
	tooMuch := refused(r.String(), "release "+tag, fmt.Sprintf("its packages hold more than the %d bytes accepted", int64(registry.MaxDownloadBytes)))
	var chosen []Asset
	var announced, held int64
	for _, a := range rel.Assets {
		if v := variantOf(a.Name); strings.HasSuffix(a.Name, artifact.Ext) && (v == "" || v == platform) {
			chosen = append(chosen, a)
			if a.Size > registry.MaxDownloadBytes-announced {
				return nil, tooMuch
			}
			announced += a.Size
		}
	}
	var out []*registry.Resolved
	byName := map[string]int{}
	for _, a := range chosen {
		p, err := r.pkg(ctx, rel, a, "", "")
		if err != nil {
			return nil, err
		}
		if held += int64(len(p.Data)); held > registry.MaxDownloadBytes {
			return nil, tooMuch
		}
		i, dup := byName[p.Name]
		switch {
		case !dup:
			byName[p.Name] = len(out)
			out = append(out, p)
		case (out[i].Platform == nil) == (p.Platform == nil):
			return nil, refused(r.String(), a.Name, fmt.Sprintf("the release holds two packages of %s", p.Name))
		case p.Platform != nil:
			out[i] = p
		}
	}
	if len(out) == 0 {
		return nil, notFound(target, r.String(), fmt.Sprintf("no .mur.zip assets for %s found in github release %s/%s@%s", platform, r.owner, r.name, rel.Tag))
	}
	return out, nil
}

// Resolve is name@version for the platform p asks (nil: the generic
// package), as Murmur's --all-platforms finds it: the release tagged
// version (or v<version>) when it has <name>-<version>[-<platform>].mur.zip,
// else the latest release when it has. "latest" is the latest release's
// asset, chosen as for a bare name. The package must be name@version.
func (r *Repo) Resolve(ctx context.Context, name, version string, p *artifact.Platform) (*registry.Resolved, error) {
	platform, target := "", name+"@"+version
	if p != nil {
		platform = p.String()
		target += " (platform: " + platform + ")"
	}
	if version == "latest" {
		rel, err := r.release(ctx, target, "latest")
		if err != nil {
			return nil, err
		}
		a, ok := rel.forArtifact(name, platform)
		if !ok {
			return nil, notFound(target, r.String(), fmt.Sprintf("no asset for '%s' in latest release '%s'", name, rel.Tag))
		}
		return r.pkg(ctx, rel, a, name, "")
	}
	primary := ""
	for _, tag := range versionTags(version) {
		rel, err := r.release(ctx, target, "tags", tag)
		if errors.Is(err, registry.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if a, ok := rel.versioned(name, version, platform); ok {
			return r.pkg(ctx, rel, a, name, version)
		}
		primary = rel.Tag
		break
	}
	latest, err := r.release(ctx, target, "latest")
	if err != nil {
		return nil, err
	}
	if a, ok := latest.versioned(name, version, platform); ok {
		return r.pkg(ctx, latest, a, name, version)
	}
	where := fmt.Sprintf("'%s'", primary)
	if primary == "" {
		where = fmt.Sprintf("'%s' (no such release)", version)
	}
	return nil, notFound(target, r.String(), fmt.Sprintf("no asset for '%s' v%s in release %s or latest '%s'", name, version, where, latest.Tag))
}

// versionTags are the tags Murmur tries for a version: as given, then
// with a leading v.
func versionTags(version string) []string {
	if CheckTag(version) != nil {
		return nil
	}
	if strings.HasPrefix(version, "v") {
		return []string{version}
	}
	return []string{version, "v" + version}
}

// release reads releases/<path...>: a 404 is E-REG-001 for target.
func (r *Repo) release(ctx context.Context, target string, path ...string) (*Release, error) {
	segs := append([]string{"repos", r.owner, r.name, "releases"}, path...)
	data, err := r.c.get(ctx, segs, "application/vnd.github+json", maxReleaseBytes, apiTimeout)
	what := "release " + strings.Join(path, "/")
	switch {
	case errors.Is(err, errNotFound):
		return nil, notFound(target, r.String(), what+" not found")
	case err != nil:
		var big *tooLarge
		if errors.As(err, &big) {
			return nil, refused(r.String(), what, err.Error())
		}
		return nil, failure(r.String(), "reading "+what, err)
	}
	rel, err := decodeRelease(data)
	if err != nil {
		return nil, refused(r.String(), what, err.Error())
	}
	return rel, nil
}
