package oci

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	reg "github.com/mur-go/mur/internal/store/registry"
)

// Publish pushes data unchanged as the layer of a manifest tagged
// PREFIX/<name>:<version>; a native variant goes into a per-platform index
// under that tag. An existing name@version (or platform of it) is refused
// with E-REG-003. The registry has no conditional tag update, so two
// publishers racing for one new version are not told apart.
func (r *Registry) Publish(ctx context.Context, meta artifact.Meta, data []byte) (*reg.Published, error) {
	if artifact.IsReservedVersion(meta.Version) {
		return nil, &diag.Error{Code: reg.CodeReserved, Err: reg.ErrReservedVersion,
			Msg:  fmt.Sprintf("version '%s' is reserved and cannot be published", meta.Version),
			Hint: "latest, stable and edge are reserved; use a concrete version such as 1.0.0"}
	}
	pm, err := checkPackage(meta, data)
	if err != nil {
		return nil, err
	}
	repo, where, err := r.repository(meta.Name, meta.Version)
	if err != nil {
		return nil, err
	}
	var index *ocispec.Index
	existing, err := repo.Resolve(ctx, meta.Version)
	switch {
	case err == nil && len(meta.Platforms) == 0:
		return nil, conflict(meta, where)
	case err == nil:
		if index, err = r.fetchIndex(ctx, repo, existing, meta); err != nil {
			return nil, err
		}
	case !notFound(err):
		return nil, r.failure("looking up "+where, err)
	}
	sha := artifact.SHA256Hex(data)
	layer := content.NewDescriptorFromBytes(LayerMediaType, data)
	layer.Annotations = map[string]string{ocispec.AnnotationTitle: artifact.FileName(meta.Name, meta.Version, platformOf(meta))}
	if err := r.pushBlob(ctx, repo, layer, data, where); err != nil {
		return nil, err
	}
	if err := r.pushBlob(ctx, repo, ocispec.DescriptorEmptyJSON, ocispec.DescriptorEmptyJSON.Data, where); err != nil {
		return nil, err
	}
	notes := annotations(meta, pm, sha)
	man, err := json.Marshal(ocispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageManifest,
		ArtifactType: ArtifactType, Config: ocispec.DescriptorEmptyJSON, Layers: []ocispec.Descriptor{layer}, Annotations: notes})
	if err != nil {
		return nil, err
	}
	manDesc := content.NewDescriptorFromBytes(ocispec.MediaTypeImageManifest, man)
	if len(meta.Platforms) == 0 {
		if err := repo.PushReference(ctx, manDesc, bytes.NewReader(man), meta.Version); err != nil {
			return nil, r.failure("pushing "+where, err)
		}
		return &reg.Published{ArtifactID: meta.ID(), SHA256: sha}, nil
	}
	if err := repo.Manifests().Push(ctx, manDesc, bytes.NewReader(man)); err != nil {
		return nil, r.failure("pushing the manifest of "+where, err)
	}
	if index == nil {
		index = &ocispec.Index{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ocispec.MediaTypeImageIndex,
			ArtifactType: ArtifactType, Annotations: map[string]string{AnnotationName: meta.Name, AnnotationVersion: meta.Version}}
	}
	manDesc.ArtifactType = ArtifactType
	manDesc.Platform = ociPlatform(meta.Platforms[0])
	manDesc.Annotations = notes
	index.Manifests = append(index.Manifests, manDesc)
	idx, err := json.Marshal(index)
	if err != nil {
		return nil, err
	}
	if err := repo.PushReference(ctx, content.NewDescriptorFromBytes(ocispec.MediaTypeImageIndex, idx), bytes.NewReader(idx), meta.Version); err != nil {
		return nil, r.failure("pushing the index of "+where, err)
	}
	return &reg.Published{ArtifactID: meta.ID(), SHA256: sha}, nil
}

// fetchIndex reads the index a new native variant joins; a tag holding a
// plain manifest, or the platform already, is a conflict.
func (r *Registry) fetchIndex(ctx context.Context, repo *remote.Repository, desc ocispec.Descriptor, meta artifact.Meta) (*ocispec.Index, error) {
	_, where, _ := r.repository(meta.Name, meta.Version)
	if desc.MediaType != ocispec.MediaTypeImageIndex {
		return nil, conflict(meta, where)
	}
	raw, err := r.fetchManifest(ctx, repo, desc, meta.Name, meta.Version)
	if err != nil {
		return nil, err
	}
	var index ocispec.Index
	if err := json.Unmarshal(raw, &index); err != nil {
		return nil, r.refused(meta.Name, meta.Version, "its index does not parse: "+err.Error())
	}
	for _, m := range index.Manifests {
		if samePlatform(m.Platform, meta.Platforms[0]) {
			return nil, conflict(meta, where)
		}
	}
	return &index, nil
}

func (r *Registry) pushBlob(ctx context.Context, repo *remote.Repository, desc ocispec.Descriptor, data []byte, where string) error {
	ok, err := repo.Blobs().Exists(ctx, desc)
	if err != nil {
		return r.failure("checking a blob of "+where, err)
	}
	if ok {
		return nil
	}
	if err := repo.Blobs().Push(ctx, desc, bytes.NewReader(data)); err != nil {
		return r.failure("pushing a blob of "+where, err)
	}
	return nil
}

// annotations describe the package for Resolve and Catalog; role and
// description come from the package's own murmur.yaml, so a listing shows
// what installing would.
func annotations(meta artifact.Meta, pm *artifact.Manifest, sha string) map[string]string {
	platforms := make([]string, len(meta.Platforms))
	for i, p := range meta.Platforms {
		platforms[i] = p.String()
	}
	notes := map[string]string{
		AnnotationName: meta.Name, AnnotationVersion: meta.Version, AnnotationRuntime: string(meta.Runtime),
		AnnotationPlatforms: strings.Join(platforms, ","), AnnotationSHA256: sha, AnnotationRole: pm.Runtime,
	}
	if pm.Description != "" {
		notes[AnnotationDescription] = pm.Description
	}
	return notes
}

func platformOf(meta artifact.Meta) *artifact.Platform {
	if len(meta.Platforms) == 0 {
		return nil
	}
	return &meta.Platforms[0]
}

// checkPackage refuses what no store would accept: a package that fails
// artifact.Verify or whose murmur.yaml names another artifact.
func checkPackage(meta artifact.Meta, data []byte) (*artifact.Manifest, error) {
	m, err := artifact.Verify(data, artifact.DefaultMaxDecompressedBytes)
	if err != nil {
		return nil, diag.Wrap(reg.CodeIO, fmt.Errorf("%w: %w", reg.ErrInvalidInput, err), "package for %s refused: %v", meta.ID(), err)
	}
	if m.Name != meta.Name || m.Version != meta.Version {
		return nil, &diag.Error{Code: reg.CodeIO, Err: reg.ErrInvalidInput,
			Msg:  fmt.Sprintf("package for %s refused: its murmur.yaml says %s@%s", meta.ID(), m.Name, m.Version),
			Hint: "publish the package under the name and version its manifest declares"}
	}
	return m, nil
}

func conflict(meta artifact.Meta, where string) error {
	return &diag.Error{Code: reg.CodeConflict, Err: reg.ErrConflict,
		Msg:  fmt.Sprintf("artifact %s already exists in registry (%s)", meta.ID(), where),
		Hint: "published versions are immutable: bump version: in murmur.yaml, rebuild and publish again"}
}
