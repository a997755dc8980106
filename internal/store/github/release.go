package github

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/semver"

	"github.com/mur-go/mur/internal/format/artifact"
)

// maxAssets is GitHub's limit of assets per release.
const maxAssets = 1000

// Release is a release as its JSON says, checked to be one GitHub could
// have sent: asset names are plain file names, once each.
type Release struct {
	Tag    string
	Assets []Asset
}

// Asset is one release asset.
type Asset struct {
	ID   uint64
	Name string
	// Size is what the release says the asset holds (0: unknown).
	Size int64
	// SHA256 is the hex digest GitHub records in "digest", "" if none.
	SHA256 string
}

// decodeRelease reads a release's JSON. Only the fields Murmur reads
// (tag_name, assets[].id and .name) and the two mur-go checks with (size,
// digest) are kept; other fields are GitHub's and ignored.
func decodeRelease(data []byte) (*Release, error) {
	var doc struct {
		Tag    *string `json:"tag_name"`
		Assets []struct {
			ID     *uint64 `json:"id"`
			Name   *string `json:"name"`
			Size   int64   `json:"size"`
			Digest *string `json:"digest"`
		} `json:"assets"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("invalid release JSON: %w", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("invalid release JSON: data after the release object")
	}
	if len(doc.Assets) > maxAssets {
		return nil, fmt.Errorf("the release lists %d assets (GitHub allows %d)", len(doc.Assets), maxAssets)
	}
	r := &Release{}
	if doc.Tag != nil {
		r.Tag = *doc.Tag
	}
	if !printable(r.Tag) {
		return nil, fmt.Errorf("the release's tag_name %q is not printable text", r.Tag)
	}
	seen := make(map[string]bool, len(doc.Assets))
	for i, a := range doc.Assets {
		if a.ID == nil || a.Name == nil {
			return nil, fmt.Errorf("asset %d has no id or no name", i)
		}
		if err := checkAssetName(*a.Name); err != nil {
			return nil, err
		}
		if seen[*a.Name] {
			return nil, fmt.Errorf("two assets are named %q", *a.Name)
		}
		seen[*a.Name] = true
		if a.Size < 0 {
			return nil, fmt.Errorf("asset %q has a negative size", *a.Name)
		}
		sum := ""
		if a.Digest != nil {
			var err error
			if sum, err = parseDigest(*a.Digest); err != nil {
				return nil, fmt.Errorf("asset %q: %w", *a.Name, err)
			}
		}
		r.Assets = append(r.Assets, Asset{ID: *a.ID, Name: *a.Name, Size: a.Size, SHA256: sum})
	}
	return r, nil
}

// checkAssetName refuses what no GitHub asset is called: GitHub keeps an
// uploaded file's base name, so a separator, a dot name or a control
// character means the release did not come from it.
func checkAssetName(name string) error {
	switch {
	case name == "" || name == "." || name == ".." || len(name) > 255:
		return fmt.Errorf("asset name %q is not a file name", name)
	case strings.ContainsAny(name, `/\`) || !printable(name):
		return fmt.Errorf("asset name %q is not a file name", name)
	}
	return nil
}

// printable: valid UTF-8 without control or format characters.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// asset finds an asset by exact name.
func (r *Release) asset(name string) (Asset, bool) {
	for _, a := range r.Assets {
		if a.Name == name {
			return a, true
		}
	}
	return Asset{}, false
}

// forArtifact is Murmur's choice for a name with no version: a variant
// for the platform (<name>-<version>-<platform>.mur.zip), else
// <name>.mur.zip, else any <name>-<version>.mur.zip that is no other
// platform's variant (Murmur takes those too), in the release's order.
func (r *Release) forArtifact(name, platform string) (Asset, bool) {
	prefix, suffix := name+"-", "-"+platform+artifact.Ext
	for _, a := range r.Assets {
		if versionBetween(a.Name, prefix, suffix) {
			return a, true
		}
	}
	if a, ok := r.asset(name + artifact.Ext); ok {
		return a, true
	}
	for _, a := range r.Assets {
		if variantOf(a.Name) != "" {
			continue // the host's were looked for first; another's would not run here
		}
		if versionBetween(a.Name, prefix, artifact.Ext) {
			return a, true
		}
	}
	return Asset{}, false
}

// versionBetween: asset is prefix, a semantic version, then suffix. Murmur
// matches any text there, so "tool" also took "tool-extra-1.0.0…", another
// artifact, when a release listed it first.
func versionBetween(asset, prefix, suffix string) bool {
	if len(asset) < len(prefix)+len(suffix) || !strings.HasPrefix(asset, prefix) || !strings.HasSuffix(asset, suffix) {
		return false
	}
	return semver.IsValid("v" + strings.TrimPrefix(asset[len(prefix):len(asset)-len(suffix)], "v"))
}

// versioned is Murmur's choice for name@version:
// <name>-<version>-<platform>.mur.zip, else <name>-<version>.mur.zip.
func (r *Release) versioned(name, version, platform string) (Asset, bool) {
	if a, ok := r.asset(name + "-" + version + "-" + platform + artifact.Ext); ok {
		return a, true
	}
	return r.asset(name + "-" + version + artifact.Ext)
}

// knownPlatforms are the platforms Murmur names native variants for.
func knownPlatforms() []string {
	return []string{"linux-x86_64", "linux-aarch64", "darwin-x86_64", "darwin-aarch64"}
}

// AllPlatforms are the platforms Murmur's --all-platforms fetches.
func AllPlatforms() []string { return []string{"linux-x86_64", "darwin-aarch64"} }

// variantOf is the platform an asset name ends in, "" for none.
func variantOf(name string) string {
	for _, p := range knownPlatforms() {
		if strings.HasSuffix(name, "-"+p+artifact.Ext) {
			return p
		}
	}
	return ""
}
