package oci

import (
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/mur-go/mur/internal/format/artifact"
)

// ociArch maps Murmur's architecture names to OCI's (GOARCH) ones.
var ociArch = map[string]string{"x86_64": "amd64", "aarch64": "arm64"}

// ociPlatform is p in an index entry.
func ociPlatform(p artifact.Platform) *ocispec.Platform {
	arch, ok := ociArch[p.Arch]
	if !ok {
		arch = p.Arch
	}
	return &ocispec.Platform{OS: p.OS, Architecture: arch}
}

// samePlatform reports whether an index entry's platform is p.
func samePlatform(o *ocispec.Platform, p artifact.Platform) bool {
	want := ociPlatform(p)
	return o != nil && o.OS == want.OS && o.Architecture == want.Architecture
}
