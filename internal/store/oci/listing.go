package oci

import (
	"encoding/json"
	"fmt"
	"strings"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

const ociIndex = ocispec.MediaTypeImageIndex

// listed describes the package whose manifest is raw (served under desc
// for name:tag), after the checks Resolve makes before fetching a blob.
func (r *Registry) listed(raw []byte, desc ocispec.Descriptor, name, tag string) (*Listed, error) {
	_, notes, err := r.checkManifest(raw, desc, name, tag)
	if err != nil {
		return nil, err
	}
	l := &Listed{Name: name, Version: tag, Runtime: notes[AnnotationRole], Packaging: notes[AnnotationRuntime], Platforms: []string{}}
	if l.Runtime == "" {
		l.Runtime = notes[AnnotationRuntime]
	}
	if d, ok := notes[AnnotationDescription]; ok {
		l.Description = &d
	}
	for _, p := range strings.Split(notes[AnnotationPlatforms], ",") {
		if p != "" {
			l.Platforms = append(l.Platforms, p)
		}
	}
	return l, nil
}

// variants is the manifests an index of native variants lists, each with
// a valid digest, at most maxIndexEntries of them.
func (r *Registry) variants(raw []byte, name, tag string) ([]ocispec.Descriptor, error) {
	var index ocispec.Index
	if err := json.Unmarshal(raw, &index); err != nil {
		return nil, r.refused(name, tag, "its index does not parse: "+err.Error())
	}
	switch n := len(index.Manifests); {
	case n == 0:
		return nil, r.refused(name, tag, "its index lists no package")
	case n > maxIndexEntries:
		return nil, r.refused(name, tag, fmt.Sprintf("its index lists %d variants (at most %d read)", n, maxIndexEntries))
	}
	for _, m := range index.Manifests {
		// A malformed digest makes go-digest panic: validate it first.
		if m.MediaType != ocispec.MediaTypeImageManifest || m.Digest.Validate() != nil {
			return nil, r.refused(name, tag, "its index lists something other than a package manifest")
		}
	}
	return index.Manifests, nil
}
