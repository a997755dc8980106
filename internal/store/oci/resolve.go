package oci

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/mur-go/mur/internal/format/artifact"
	reg "github.com/mur-go/mur/internal/store/registry"
)

// Resolve fetches PREFIX/<name>:<version>. The manifest (and index) are
// read within MaxManifestBytes and checked against their digest, the layer
// within the package cap and against its digest, and the layer digest must
// be the package sha256 the manifest annotates. The returned Resolved
// carries that sha256, which install checks again and pins in murmur.lock.
func (r *Registry) Resolve(ctx context.Context, name, version string, p *artifact.Platform) (*reg.Resolved, error) {
	repo, where, err := r.repository(name, version)
	if err != nil {
		return nil, err
	}
	desc, err := repo.Resolve(ctx, version)
	if notFound(err) {
		missing := reg.NotFoundError(name, version)
		missing.Msg = fmt.Sprintf("artifact %s@%s not found in OCI registry %s: no tag %s", name, version, r.loc.Host, where)
		return nil, missing
	}
	if err != nil {
		return nil, r.failure("resolving "+where, err)
	}
	raw, err := r.fetchManifest(ctx, repo, desc, name, version)
	if err != nil {
		return nil, err
	}
	var served *artifact.Platform
	if desc.MediaType == ocispec.MediaTypeImageIndex {
		if desc, served, err = r.pick(raw, name, version, p); err != nil {
			return nil, err
		}
		if raw, err = r.fetchManifest(ctx, repo, desc, name, version); err != nil {
			return nil, err
		}
	}
	layer, notes, err := r.checkManifest(raw, desc, name, version)
	if err != nil {
		return nil, err
	}
	rc, err := repo.Blobs().Fetch(ctx, layer)
	if err != nil {
		return nil, r.failure("fetching the package of "+where, err)
	}
	defer rc.Close()
	data, err := content.ReadAll(rc, layer)
	if err != nil {
		return nil, r.refused(name, version, "its package blob does not match its digest: "+err.Error())
	}
	meta := artifact.Meta{Name: name, Version: version, Runtime: artifact.RuntimeType(notes[AnnotationRuntime]),
		Platforms: []artifact.Platform{}, Tags: []string{}}
	if served != nil {
		meta.Platforms = []artifact.Platform{*served}
	}
	return &reg.Resolved{Name: name, Version: version, Data: data, SHA256: notes[AnnotationSHA256], Meta: meta, Platform: served}, nil
}

// fetchManifest reads a manifest or index within MaxManifestBytes,
// verifying its digest while reading.
func (r *Registry) fetchManifest(ctx context.Context, repo *remote.Repository, desc ocispec.Descriptor, name, version string) ([]byte, error) {
	if desc.Size <= 0 || desc.Size > MaxManifestBytes {
		return nil, r.refused(name, version, fmt.Sprintf("its manifest is %d bytes (at most %d accepted)", desc.Size, MaxManifestBytes))
	}
	rc, err := repo.Manifests().Fetch(ctx, desc)
	if err != nil {
		return nil, r.failure("fetching the manifest of "+name+"@"+version, err)
	}
	defer rc.Close()
	raw, err := content.ReadAll(rc, desc)
	if err != nil {
		return nil, r.refused(name, version, "its manifest does not match its digest: "+err.Error())
	}
	var head struct {
		MediaType string `json:"mediaType"`
	}
	if err := json.Unmarshal(raw, &head); err != nil || head.MediaType != desc.MediaType {
		return nil, r.refused(name, version, "its manifest's media type is not "+desc.MediaType)
	}
	return raw, nil
}

// pick chooses the index entry for p, falling back to a generic entry.
func (r *Registry) pick(raw []byte, name, version string, p *artifact.Platform) (ocispec.Descriptor, *artifact.Platform, error) {
	var index ocispec.Index
	if err := json.Unmarshal(raw, &index); err != nil {
		return ocispec.Descriptor{}, nil, r.refused(name, version, "its index does not parse: "+err.Error())
	}
	var generic *ocispec.Descriptor
	for i, m := range index.Manifests {
		if m.MediaType != ocispec.MediaTypeImageManifest {
			continue
		}
		if m.Digest.Validate() != nil {
			return ocispec.Descriptor{}, nil, r.refused(name, version, "its index holds an invalid digest")
		}
		if p != nil && samePlatform(m.Platform, *p) {
			served := *p
			return m, &served, nil
		}
		if m.Platform == nil && generic == nil {
			generic = &index.Manifests[i]
		}
	}
	if generic != nil {
		return *generic, nil, nil
	}
	err := reg.NotFoundError(name, version)
	if p != nil {
		err.Msg = fmt.Sprintf("artifact %s@%s has no variant for %s in registry", name, version, p)
	}
	return ocispec.Descriptor{}, nil, err
}

// checkManifest checks the manifest is a package manifest for name@version
// and returns its layer and annotations.
func (r *Registry) checkManifest(raw []byte, desc ocispec.Descriptor, name, version string) (ocispec.Descriptor, map[string]string, error) {
	var m ocispec.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return ocispec.Descriptor{}, nil, r.refused(name, version, "its manifest does not parse: "+err.Error())
	}
	switch {
	case desc.MediaType != ocispec.MediaTypeImageManifest || m.ArtifactType != ArtifactType:
		return ocispec.Descriptor{}, nil, r.refused(name, version, "it is not a Murmur package (artifactType "+m.ArtifactType+")")
	case len(m.Layers) != 1 || m.Layers[0].MediaType != LayerMediaType:
		return ocispec.Descriptor{}, nil, r.refused(name, version, "it does not hold exactly one "+LayerMediaType+" layer")
	case m.Annotations[AnnotationName] != name || m.Annotations[AnnotationVersion] != version:
		return ocispec.Descriptor{}, nil, r.refused(name, version, fmt.Sprintf("its annotations name %s@%s",
			m.Annotations[AnnotationName], m.Annotations[AnnotationVersion]))
	}
	layer := m.Layers[0]
	sha := strings.ToLower(m.Annotations[AnnotationSHA256])
	// A malformed digest makes go-digest panic: validate it first.
	if layer.Digest.Validate() != nil || layer.Digest.Algorithm() != digest.SHA256 || layer.Digest.Encoded() != sha {
		return ocispec.Descriptor{}, nil, r.refused(name, version, "its layer digest "+string(layer.Digest)+" is not the annotated package sha256 "+sha)
	}
	if layer.Size <= 0 || layer.Size > reg.MaxDownloadBytes {
		return ocispec.Descriptor{}, nil, r.refused(name, version, fmt.Sprintf("its package is %d bytes (at most %d accepted)", layer.Size, reg.MaxDownloadBytes))
	}
	return layer, m.Annotations, nil
}
