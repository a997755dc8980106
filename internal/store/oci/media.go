package oci

// Media types and annotations of a published package. They are mur-go's
// own (no standard covers capsule packages) and are documented in README.
const (
	// ArtifactType is the manifest's artifactType.
	ArtifactType = "application/vnd.murmur.package.v1"
	// LayerMediaType is the one layer: the .mur.zip exactly as published.
	LayerMediaType = "application/vnd.murmur.package.v1+zip"

	AnnotationName      = "dev.murmur.package.name"
	AnnotationVersion   = "dev.murmur.package.version"
	AnnotationRuntime   = "dev.murmur.package.runtime"
	AnnotationPlatforms = "dev.murmur.package.platforms" // comma-separated os-arch, empty for generic
	AnnotationSHA256    = "dev.murmur.package.sha256"    // hex sha256 of the .mur.zip
	// AnnotationRole is murmur.yaml's runtime: (tool, driver, hook, skill).
	AnnotationRole = "dev.murmur.package.role"
	// AnnotationDescription is murmur.yaml's description:, absent when
	// it has none.
	AnnotationDescription = "dev.murmur.package.description"

	// MaxManifestBytes bounds a manifest or index read from a registry.
	MaxManifestBytes = 4 << 20
)
